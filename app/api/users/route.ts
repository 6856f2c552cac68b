import { CreateUserRequest } from '@/lib/api/gate-schemas';
import { createUser, listUsers } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/db/connection';
import { readJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = authed('admin', async () => {
  const { db } = await getDatabase();
  return json({ users: await listUsers(db) });
});

export const POST = authed('admin', async (request, _context, principal) => {
  const body = await readJson(request, CreateUserRequest);
  const { db } = await getDatabase();
  const created = await createUser(db, body, principal.username);
  return json(created, 201, { Location: `/api/users/${created.username}` });
});
