import { describe, expect, it } from 'vitest';
import { testDatabases, useTestDatabase } from '../db/test-databases';
import { AppError } from '../errors';
import { ensureEnvAdminToken, principalFromToken } from './api-tokens';
import { createUser, listUsers, setUserRole } from './users';

describe.each(testDatabases())('users and tokens on $name', (database) => {
  const db = useTestDatabase(database);

  it('refuses a duplicate username with a 409, even when both creations race', async () => {
    const attempts = await Promise.allSettled([1, 2, 3].map(() => createUser(db(), { username: 'dup', password: 'password-1', role: 'viewer' }, 'test')));
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const failed of attempts.filter((a) => a.status === 'rejected')) expect((failed.reason as AppError).status).toBe(409);
  });

  it('never demotes the last admin, even when two admins demote each other at once', async () => {
    await createUser(db(), { username: 'root1', password: 'password-1', role: 'admin' }, 'test');
    await createUser(db(), { username: 'root2', password: 'password-1', role: 'admin' }, 'test');
    const outcomes = await Promise.allSettled([setUserRole(db(), 'root1', 'viewer', 'root2'), setUserRole(db(), 'root2', 'viewer', 'root1')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as AppError).message).toMatch(/is the last admin/);
    expect((await listUsers(db())).filter((u) => u.role === 'admin')).toHaveLength(1);
  });

  it('makes PLANGATE_ADMIN_TOKEN an admin token, refuses a short one, and revokes it when unset', async () => {
    const token = 'a'.repeat(40);
    await expect(ensureEnvAdminToken(db(), 'short')).rejects.toThrow(/at least 32 characters/);
    await ensureEnvAdminToken(db(), token);
    expect(await principalFromToken(db(), token)).toMatchObject({ username: 'plangate-admin', role: 'admin', via: 'token' });
    await ensureEnvAdminToken(db(), undefined);
    expect(await principalFromToken(db(), token)).toBeNull();
    await ensureEnvAdminToken(db(), token);
    expect(await principalFromToken(db(), token)).not.toBeNull();
  });
});
