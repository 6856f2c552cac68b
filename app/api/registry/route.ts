import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { getRegistry, replaceRegistry } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

/** The whole registry; also its JSON export. */
export const GET = endpoint(routes.getRegistry, async () => {
  const { db } = await getDatabase();
  return json(await getRegistry(db));
});

/** Imports a registry, replacing the current one. */
export const PUT = endpoint(routes.replaceRegistry, async ({ body, principal }) => {
  const { db } = await getDatabase();
  return json(await replaceRegistry(db, body, principal.username));
});

export const { POST, PATCH, DELETE } = notAllowed('/api/registry');
