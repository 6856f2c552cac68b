'use server';

import { z } from 'zod';
import { CreateTokenRequest, CreateUserRequest, Username } from '@/lib/api/gate-schemas';
import { Role } from '@/lib/auth/roles';
import { runAction } from '@/lib/server/platform/action';
import { issueToken } from '@/lib/server/auth/api-tokens';
import { createUser, setUserRole } from '@/lib/server/auth/users';
import { getDatabase } from '@/lib/server/platform/db/connection';

// User and token management from /admin/users. The same services back POST /api/users,
// PATCH /api/users/{username} and POST /api/tokens; every change is audited with the
// signed-in admin as its actor.

export async function createUserAction(input: z.input<typeof CreateUserRequest>) {
  return runAction('admin', CreateUserRequest, input, async (request, principal) => {
    const { db } = await getDatabase();
    return createUser(db, request, principal.username);
  });
}

const SetRoleInput = z.strictObject({ username: Username, role: Role });

export async function setUserRoleAction(input: z.input<typeof SetRoleInput>) {
  return runAction('admin', SetRoleInput, input, async ({ username, role }, principal) => {
    const { db } = await getDatabase();
    return setUserRole(db, username, role, principal.username);
  });
}

export async function createTokenAction(input: z.input<typeof CreateTokenRequest>) {
  return runAction('admin', CreateTokenRequest, input, async (request, principal) => {
    const { db } = await getDatabase();
    return issueToken(db, request, principal);
  });
}
