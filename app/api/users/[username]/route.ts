import { SetRoleRequest, Username } from '@/lib/api/gate-schemas';
import { setUserRole } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/db/connection';
import { readJson } from '@/lib/server/http/read-json';
import { notFound } from '@/lib/server/errors';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/** Changes a user's role; the only field an admin edits over the API. */
export const PATCH = authed('admin', async (request, { params }: { params: Promise<{ username: string }> }, principal) => {
  const { username } = await params;
  const name = Username.safeParse(username);
  if (!name.success) throw notFound(`User "${username.slice(0, 64)}"`);
  const { role } = await readJson(request, SetRoleRequest);
  const { db } = await getDatabase();
  return json(await setUserRole(db, name.data, role, principal.username));
});
