import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../lib/server/db/client';

// The CLI as an operator runs it: a real process on a real (embedded) database, which is
// then tampered with by hand the way an attacker with database access would.

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plangate-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function plangate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/plangate.ts', ...args], {
      cwd: path.resolve(__dirname, '..'),
      env: { ...process.env, PLANGATE_DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('plangate CLI', () => {
  it('adds a user, creates a token, verifies the audit trail, and catches a row altered by hand', { timeout: 60_000 }, async () => {
    const added = await plangate('user', 'add', 'alice', '--role', 'approver', '--password', 'alice-password-1');
    expect(added.code, added.stderr).toBe(0);
    // A person's token acts in their name: only they can make one, signed in.
    const refused = await plangate('token', 'create', 'alice', '--label', 'ci');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('alice is a person, not a service account');
    const bot = await plangate('user', 'add', 'ci-bot', '--role', 'editor', '--service');
    expect(bot.code, bot.stderr).toBe(0);
    expect(bot.stdout).toContain('Created service account ci-bot');
    expect(bot.stdout).not.toContain('Password');
    expect((await plangate('user', 'add', 'bot2', '--role', 'editor', '--service', '--password', 'password-123')).code).toBe(2);
    const token = await plangate('token', 'create', 'ci-bot', '--label', 'ci');
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout.trim()).toMatch(/^pgt_[\w-]{43}$/);
    expect((await plangate('user', 'add', 'Not Valid!', '--role', 'approver')).code).toBe(2);

    const verified = await plangate('audit', 'verify');
    expect([verified.code, verified.stdout.trim()]).toEqual([0, 'audit trail OK: 3 events']);

    const handle = await openDatabase({ kind: 'pglite', dataDir });
    await handle.db.execute(sql`update audit_events set actor = 'mallory' where seq = 1`);
    await handle.close();
    const broken = await plangate('audit', 'verify');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('audit trail BROKEN at event 1');
  });
});
