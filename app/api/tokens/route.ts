import { routes } from '@/lib/api/routes';
import { issueToken } from '@/lib/server/auth/api-tokens';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** A new API token for the caller, or (admins only) for the named user. Shown once. */
export const POST = endpoint(routes.createToken, async ({ body, principal }) => {
  const { db } = await getDatabase();
  return json(await issueToken(db, body, principal), 201);
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/tokens');
