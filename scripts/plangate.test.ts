import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../lib/server/platform/db/client';
import { migratedPgliteDataDir } from '../lib/server/platform/db/test-databases';

// The CLI as an operator runs it: a real process on a real (embedded) database, which is
// then tampered with by hand the way an attacker with database access would.

const run = promisify(execFile);
const CALL_BOUND_MS = 60_000;
/** A test's bound: its CLI calls' bounds added up. */
const calls = (count: number) => ({ timeout: count * CALL_BOUND_MS });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'plangate-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const dataDir = path.join(scratch, 'data');
const secondDataDir = path.join(scratch, 'data-2');
// Each test's database starts migrated, as a server's first start leaves it: the CLI opening
// an existing directory is what an operator does; creating one is a server's first start, which the
// browser tests' server does on an empty directory.
beforeAll(() => Promise.all([migratedPgliteDataDir(dataDir), migratedPgliteDataDir(secondDataDir)]));
// The audit key file the CLI makes on its first write, outside the data directory.
const keyDir = path.join(scratch, 'keys');

type Result = { code: number; stdout: string; stderr: string };

function plangate(...args: string[]): Promise<Result> {
  return plangateIn({ PLANGATE_DATA_DIR: dataDir, PLANGATE_KEY_DIR: keyDir }, ...args);
}

/** As `npm run plangate` runs it (package.json), flags included. */

async function plangateIn(env: Record<string, string>, ...args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--liftoff-only', '--conditions=react-server', '--import', 'tsx', 'scripts/plangate.ts', ...args], {
      cwd: path.resolve(__dirname, '..'),
      env: { ...process.env, DATABASE_URL: '', PLANGATE_AUDIT_KEY: '', ...env },
      timeout: CALL_BOUND_MS,
      killSignal: 'SIGKILL',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; killed?: boolean; stdout: string; stderr: string };
    if (failed.killed) throw new Error(`plangate ${args.join(' ')} did not finish within ${CALL_BOUND_MS / 1000} s:\n${failed.stderr}`);
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// Every call is a fresh process that loads the CLI and opens PGlite: about 3 s of CPU, 25 s
// and more on a 2-core machine running the browser tests and a CPU burner beside it. So each
// call has its own bound (a call that outlives it is a hang, killed and reported), and a test's
// bound is its calls' bounds added up, not a guess at the whole. The two tests use
// their own data and key directories, so they run side by side: their time is mostly spent
// starting processes, one after another within each test.
describe.concurrent('plangate CLI', () => {
  it('adds a user, creates a token, verifies the audit trail, and catches a row altered by hand', calls(10), async () => {
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

  it('audit verify exits 1 on a truncated trail, a missing head or a missing key, and audit adopt signs a trail from before signing', calls(11), async () => {
    const env = { PLANGATE_DATA_DIR: secondDataDir, PLANGATE_KEY_DIR: path.join(scratch, 'keys-2') };
    for (const name of ['carol', 'dave']) expect((await plangateIn(env, 'user', 'add', name, '--role', 'editor')).code).toBe(0);
    expect((await plangateIn(env, 'audit', 'verify')).stdout.trim()).toBe('audit trail OK: 2 events');

    // Verifying never makes a key: without the server's key the signed head cannot be checked.
    const keyless = await plangateIn({ ...env, PLANGATE_KEY_DIR: path.join(scratch, 'no-keys') }, 'audit', 'verify');
    expect(keyless.code).toBe(1);
    expect(keyless.stdout).toMatch(/no audit key here; set PLANGATE_AUDIT_KEY/);

    const handle = await openDatabase({ kind: 'pglite', dataDir: env.PLANGATE_DATA_DIR });
    await handle.db.execute(sql`delete from audit_events where seq = (select max(seq) from audit_events)`);
    await handle.close();
    const truncated = await plangateIn(env, 'audit', 'verify');
    expect(truncated.code).toBe(1);
    expect(truncated.stdout).toMatch(/^audit trail BROKEN at event 1: .*truncation/);

    // The head deleted from a trail that has been signed (the key directory's audit.signed
    // marker says so): tampering, which a routine adopt does not launder.
    const again = await openDatabase({ kind: 'pglite', dataDir: env.PLANGATE_DATA_DIR });
    await again.db.execute(sql`delete from audit_head`);
    await again.close();
    const marker = path.join(env.PLANGATE_KEY_DIR, 'audit.signed');
    expect(existsSync(marker)).toBe(true);
    const deleted = await plangateIn(env, 'audit', 'verify');
    expect(deleted.code).toBe(1);
    expect(deleted.stdout).toMatch(/^audit trail BROKEN at event 1: .*head row was deleted, which is tampering/);
    const refused = await plangateIn(env, 'audit', 'adopt');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^audit trail not adopted: .*tampering.*run again with --replace-head/);

    // A trail with no signed head and no marker, as one from before signing looks: verify says how to adopt it.
    rmSync(marker);
    const unsigned = await plangateIn(env, 'audit', 'verify');
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('npm run plangate -- audit adopt');
    const adopted = await plangateIn(env, 'audit', 'adopt');
    expect(adopted.code, adopted.stderr).toBe(0);
    expect(adopted.stdout).toContain('audit trail adopted: trusted up to event 1');
    expect(adopted.stderr).toContain('trusting the existing audit chain up to event 1');
    expect((await plangateIn(env, 'audit', 'verify')).stdout.trim()).toBe('audit trail OK: 2 events');
  });
});
