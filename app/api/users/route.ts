import { routes } from '@/lib/api/routes';
import { createUser, listUsers } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.listUsers, async () => {
  const { db } = await getDatabase();
  return json({ users: await listUsers(db) });
});

export const POST = endpoint(routes.createUser, async ({ body, principal }) => {
  const { db } = await getDatabase();
  const created = await createUser(db, body, principal.username);
  return json(created, 201, { Location: `/api/users/${created.username}` });
});

export const { PUT, PATCH, DELETE } = notAllowed('/api/users');
