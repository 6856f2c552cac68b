import { Username } from '@/lib/api/gate-schemas';
import { routes } from '@/lib/api/routes';
import { setUserRole } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { notFound } from '@/lib/server/platform/errors';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** Changes a user's role; the only field an admin edits over the API. */
export const PATCH = endpoint(routes.setUserRole, async ({ params, body, principal }) => {
  const name = Username.safeParse(params.username);
  if (!name.success) throw notFound(`User "${params.username.slice(0, 64)}"`);
  const { db } = await getDatabase();
  return json(await setUserRole(db, name.data, body.role, principal.username));
});

export const { GET, POST, PUT, DELETE } = notAllowed('/api/users/{username}');
