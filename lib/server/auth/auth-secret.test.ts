import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AUTH_KEY_FILE, authSecret } from './auth-secret';
import { createAuth } from './auth';
import { createUser } from './users';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'plangate-auth-secret-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('authSecret', () => {
  const base = { PLANGATE_KEY_DIR: path.join(scratch, 'keys'), PLANGATE_DATA_DIR: path.join(scratch, 'data') };

  it('takes BETTER_AUTH_SECRET, then PLANGATE_AUTH_SECRET, else the key file', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(authSecret({ ...base, BETTER_AUTH_SECRET: 'b'.repeat(32), PLANGATE_AUTH_SECRET: 'p'.repeat(32) })).toBe('b'.repeat(32));
    expect(authSecret({ ...base, PLANGATE_AUTH_SECRET: 'p'.repeat(32) })).toBe('p'.repeat(32));
    const fromFile = authSecret(base);
    expect(fromFile).toHaveLength(43);
    expect(authSecret(base)).toBe(fromFile);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining(path.join(base.PLANGATE_KEY_DIR, AUTH_KEY_FILE)));
    expect(() => authSecret({ ...base, PLANGATE_AUTH_SECRET: 'short' })).toThrow(/at least 32/);
    vi.restoreAllMocks();
  });

  it('with DATABASE_URL, is never made: the variable or a placed key file, else an error naming PLANGATE_AUTH_SECRET', () => {
    const shared = { PLANGATE_KEY_DIR: path.join(scratch, 'shared-keys'), PLANGATE_DATA_DIR: path.join(scratch, 'data'), DATABASE_URL: 'postgres://db.example/p' };
    expect(() => authSecret(shared)).toThrow(
      'with DATABASE_URL every instance must share the key: set PLANGATE_AUTH_SECRET (32+ characters) or place auth.key in PLANGATE_KEY_DIR',
    );
    expect(authSecret({ ...shared, PLANGATE_AUTH_SECRET: 'p'.repeat(32) })).toBe('p'.repeat(32));
    expect(authSecret({ ...shared, PLANGATE_KEY_DIR: base.PLANGATE_KEY_DIR })).toHaveLength(43);
  });
});

describe.each(testDatabases())('sessions on $name', (database) => {
  const db = useTestDatabase(database);

  it('a copy of the database alone does not yield a working session: another secret reads none', async () => {
    process.env.PLANGATE_INSECURE_COOKIES = '1';
    await createUser(db(), { username: 'carol', password: 'carol-password-1', role: 'approver' }, 'test');
    const original = createAuth(db(), 'original-secret-'.padEnd(40, 'x'));
    const signedIn = await original.api.signInUsername({ body: { username: 'carol', password: 'carol-password-1' }, returnHeaders: true });
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie).toContain('better-auth.session_token=');
    const request = new Headers({ cookie });

    expect((await original.api.getSession({ headers: request }))?.user.username).toBe('carol');
    // Same database (sessions, users and all), another secret: the cookie is worthless.
    const copy = createAuth(db(), 'another-secret-'.padEnd(40, 'y'));
    expect(await copy.api.getSession({ headers: request })).toBeNull();
    delete process.env.PLANGATE_INSECURE_COOKIES;
  });
});
