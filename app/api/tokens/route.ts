import { CreateTokenRequest } from '@/lib/api/gate-schemas';
import { issueToken } from '@/lib/server/auth/api-tokens';
import { getDatabase } from '@/lib/server/db/connection';
import { readOptionalJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/** A new API token for the caller, or (admins only) for the named user. Shown once. */
export const POST = authed('viewer', async (request, _context, principal) => {
  const body = await readOptionalJson(request, CreateTokenRequest);
  const { db } = await getDatabase();
  return json(await issueToken(db, body, principal), 201);
});
