import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Role } from '@/lib/auth/roles';
import type { Database, DatabaseKind } from '../platform/db/client';
import { user } from '../platform/db/schema';
import { createUser } from '../auth/users';

const SEED_LOCK_KEY = 7_316_005;

/** Published in the README's quick start: these accounts exist only on a local demo database. */
export const DEMO_USERS: ReadonlyArray<{ username: string; password: string; role: Role }> = [
  { username: 'editor', password: 'editor-demo-pass', role: 'editor' },
  { username: 'approver', password: 'approver-demo-pass', role: 'approver' },
  { username: 'approver2', password: 'approver2-demo-pass', role: 'approver' },
  { username: 'admin', password: 'admin-demo-pass', role: 'admin' },
];

/** Whether HOST (the address `npm start` binds) is loopback only. Unset counts as local. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return true;
  return /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\]|localhost)$/i.test(host.trim());
}

/**
 * Demo accounts have published passwords, so they are made only on the embedded database,
 * only when the server listens on loopback (`npm start` binds 127.0.0.1 unless HOST is set),
 * and never in production unless PLANGATE_DEMO_USERS=on asks for them (`npm start` does,
 * for its local quick start). PostgreSQL (DATABASE_URL) is a real deployment: never; nor
 * is a server on a network address (HOST), whatever PLANGATE_DEMO_USERS says.
 */
export function demoUsersEnabled(kind: DatabaseKind, env: NodeJS.ProcessEnv = process.env): boolean {
  if (kind !== 'pglite' || env.PLANGATE_DEMO_USERS === 'off') return false;
  if (!isLoopbackHost(env.HOST)) {
    if (env.PLANGATE_DEMO_USERS === 'on') console.warn(`[plangate] PLANGATE_DEMO_USERS=on ignored: HOST=${env.HOST} is not a loopback address, and demo passwords are published`);
    return false;
  }
  return env.NODE_ENV !== 'production' || env.PLANGATE_DEMO_USERS === 'on';
}

export async function seedDemoUsers(db: Database): Promise<string[]> {
  const created: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    for (const demo of DEMO_USERS) {
      const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.username, demo.username));
      if (existing) continue;
      await createUser(tx, demo, 'plangate-demo');
      created.push(demo.username);
    }
  });
  if (created.length > 0) {
    console.log('[plangate] demo users on this local database (change or remove them before sharing it):');
    for (const demo of DEMO_USERS) console.log(`    ${demo.username.padEnd(10)} ${demo.password.padEnd(22)} ${demo.role}`);
  }
  return created;
}
