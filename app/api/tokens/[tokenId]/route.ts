import { routes } from '@/lib/api/routes';
import { revokeToken } from '@/lib/server/auth/api-tokens';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** Revokes a token at once; its owner or an admin may. */
export const DELETE = endpoint(routes.revokeToken, async ({ params, principal }) => {
  const { db } = await getDatabase();
  return json(await revokeToken(db, params.tokenId, principal));
});

export const { GET, POST, PUT, PATCH } = notAllowed('/api/tokens/{tokenId}');
