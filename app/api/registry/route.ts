import { getDatabase } from '@/lib/server/db/connection';
import { readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { getRegistry, replaceRegistry } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

/** The whole registry; also its JSON export. */
export const GET = authed('viewer', async () => {
  const { db } = await getDatabase();
  return json(await getRegistry(db));
});

/** Imports a registry, replacing the current one. */
export const PUT = authed('editor', async (request, _context, principal) => {
  const body = await readJsonValue(request);
  const { db } = await getDatabase();
  return json(await replaceRegistry(db, body, principal.username));
});
