import { revokeToken } from '@/lib/server/auth/api-tokens';
import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/** Revokes a token at once; its owner or an admin may. */
export const DELETE = authed('viewer', async (_request, { params }: { params: Promise<{ tokenId: string }> }, principal) => {
  const { tokenId } = await params;
  const { db } = await getDatabase();
  return json(await revokeToken(db, tokenId, principal));
});
