import { describe, expect, it } from 'vitest';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { refusal } from '../platform/test-support';
import { user } from '../platform/db/schema';
import { eq } from 'drizzle-orm';
import { createServiceToken, ensureEnvAdminToken, issueToken, principalFromToken } from './api-tokens';
import type { Principal } from './principal';
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
    expect(await principalFromToken(db(), token)).toMatchObject({ username: 'plangate-admin', role: 'admin', via: 'token', service: true });
    await ensureEnvAdminToken(db(), undefined);
    expect(await principalFromToken(db(), token)).toBeNull();
    await ensureEnvAdminToken(db(), token);
    expect(await principalFromToken(db(), token)).not.toBeNull();
  });

  it('marks an existing plangate-admin made as a person a service account at start', async () => {
    await ensureEnvAdminToken(db(), 'b'.repeat(40));
    await db().update(user).set({ service: false }).where(eq(user.username, 'plangate-admin'));
    await ensureEnvAdminToken(db(), 'b'.repeat(40));
    expect(await principalFromToken(db(), 'b'.repeat(40))).toMatchObject({ username: 'plangate-admin', service: true });
  });

  it('creates service accounts without a password and people only with one', async () => {
    const bot = await createUser(db(), { username: 'svc-bot', role: 'editor', service: true }, 'test');
    expect(bot).toMatchObject({ username: 'svc-bot', role: 'editor', service: true });
    expect((await refusal(createUser(db(), { username: 'bot2', password: 'password-1', role: 'editor', service: true }, 'test'))).status).toBe(400);
    expect((await refusal(createUser(db(), { username: 'nopass', role: 'editor' }, 'test'))).status).toBe(400);
    const listed = new Map((await listUsers(db())).map((u) => [u.username, u.service]));
    expect([listed.get('svc-bot'), listed.get('root1'), listed.has('nopass')]).toEqual([true, false, false]);
  });

  it('lets a token act only for the user who made it for themselves, or for a service account an admin minted it for', async () => {
    const alice = await createUser(db(), { username: 'alice', password: 'password-1', role: 'approver' }, 'test');
    const root = await createUser(db(), { username: 'root', password: 'password-1', role: 'admin' }, 'test');
    const bot = await createUser(db(), { username: 'ci-bot', role: 'editor', service: true }, 'test');
    const session = (u: typeof alice): Principal => ({ id: u.id, username: u.username, role: u.role, via: 'session', service: u.service });

    // A person, signed in, for themselves.
    const own = await issueToken(db(), {}, session(alice));
    expect(await principalFromToken(db(), own.token)).toEqual({ id: alice.id, username: 'alice', role: 'approver', via: 'token', service: false });

    // An admin cannot mint for another person, however it asks.
    const forAlice = await refusal(issueToken(db(), { username: 'alice' }, session(root)));
    expect([forAlice.status, forAlice.code]).toEqual([403, 'forbidden']);
    expect(forAlice.message).toMatch(/alice is a person, not a service account/);
    // Nor can a non-admin mint for anyone else, a service account included.
    expect((await refusal(issueToken(db(), { username: 'ci-bot' }, session(alice)))).status).toBe(403);
    expect((await refusal(issueToken(db(), { username: 'root' }, session(alice)))).status).toBe(403);
    expect((await refusal(issueToken(db(), { username: 'nobody' }, session(root)))).status).toBe(404);

    // An admin mints for a service account; the token acts as the service account.
    const botToken = await issueToken(db(), { username: 'ci-bot', label: 'ci' }, session(root));
    expect(await principalFromToken(db(), botToken.token)).toMatchObject({ id: bot.id, username: 'ci-bot', role: 'editor', service: true });

    // A token cannot make another token for its owner (it would outlive its own expiry) ...
    const aliceByToken = (await principalFromToken(db(), own.token))!;
    expect((await refusal(issueToken(db(), {}, aliceByToken))).status).toBe(403);
    const botByToken = (await principalFromToken(db(), botToken.token))!;
    expect((await refusal(issueToken(db(), {}, botByToken))).status).toBe(403);
    // ... but the admin service account (PLANGATE_ADMIN_TOKEN) mints for service accounts.
    await ensureEnvAdminToken(db(), 'c'.repeat(40));
    const envAdmin = (await principalFromToken(db(), 'c'.repeat(40)))!;
    expect((await issueToken(db(), { username: 'ci-bot' }, envAdmin)).username).toBe('ci-bot');
    expect((await refusal(issueToken(db(), { username: 'alice' }, envAdmin))).status).toBe(403);

    // The CLI (operator access on the database) mints for service accounts only.
    expect((await createServiceToken(db(), { username: 'ci-bot' }, 'cli')).token).toMatch(/^pgt_/);
    expect((await refusal(createServiceToken(db(), { username: 'alice' }, 'cli'))).status).toBe(403);
  });
});
