import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import { hashPassword } from 'better-auth/crypto';
import type { UserResponse } from '@/lib/api/gate-schemas';
import { roleOf, type Role } from '@/lib/auth/roles';
import type { Database } from '../platform/db/client';
import { account, user } from '../platform/db/schema';
import { isUniqueViolation } from '../platform/db/unique-violation';
import { AppError, notFound } from '../platform/errors';
import { appendAudit } from '../audit/audit-log';

// Users are rows better-auth signs in against; Plangate creates them itself (admins only,
// no self sign-up) so the user, its password and the audit event land in one transaction.


export type UserSummary = UserResponse;

type UserRow = typeof user.$inferSelect;

const ROLE_LOCK_KEY = 7_316_006;

function summary(row: UserRow): UserSummary {
  return { id: row.id, username: row.username ?? row.name, role: roleOf(row.role), service: row.service, created_at: row.createdAt.toISOString() };
}

/**
 * Creates a person (with a password, signs in) or a service account (`service: true`, no
 * password: it cannot sign in, an admin mints its API tokens, and it never decides on a plan).
 */
export async function createUser(
  db: Database,
  input: { username: string; password?: string | null; role: Role; service?: boolean },
  actor: string,
): Promise<UserSummary> {
  const service = input.service === true;
  const password = input.password ?? null;
  if (service && password !== null) throw new AppError('bad_request', 400, 'A service account has no password; leave the password out');
  if (!service && password === null) throw new AppError('bad_request', 400, 'A person needs a password (or make a service account with service: true)');
  const hashed = password === null ? null : await hashPassword(password);
  const taken = () => new AppError('conflict', 409, `A user named "${input.username}" already exists`);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.username, input.username));
    if (existing) throw taken();
    const id = crypto.randomUUID();
    const [row] = await tx
      .insert(user)
      .values({
        id,
        name: input.username,
        username: input.username,
        displayUsername: input.username,
        // better-auth requires an email; Plangate signs in by username, so it is a
        // placeholder in a reserved domain that can never receive mail.
        email: `${input.username}@users.plangate.invalid`,
        role: input.role,
        service,
        // Four-eyes reads it: the account never decides on its creator's work, nor they on its.
        createdBy: actor,
      })
      .returning()
      // Two creations of one name can both pass the check above; the unique index decides.
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? taken() : error;
      });
    if (hashed !== null) {
      await tx.insert(account).values({ id: crypto.randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hashed });
    }
    await appendAudit(tx, { kind: 'user_created', actor, detail: { username: input.username, role: input.role, ...(service ? { service: true } : {}) } });
    return summary(row);
  });
}

export async function setUserRole(db: Database, username: string, role: Role, actor: string): Promise<UserSummary> {
  return db.transaction(async (tx) => {
    // Role changes take turns: two demotions at once could otherwise each see the other as
    // the remaining admin (and row locks taken in different orders could deadlock).
    await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_LOCK_KEY})`);
    const [before] = await tx.select().from(user).where(eq(user.username, username));
    if (!before) throw notFound(`User "${username}"`);
    if (before.role === role) return summary(before);
    if (before.role === 'admin') {
      const admins = await tx.select({ id: user.id }).from(user).where(eq(user.role, 'admin'));
      if (admins.length <= 1) throw new AppError('conflict', 409, `${username} is the last admin; make someone else an admin first`);
    }
    const [row] = await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, before.id)).returning();
    await appendAudit(tx, { kind: 'role_changed', actor, detail: { username, from: before.role, to: role } });
    return summary(row);
  });
}

export async function listUsers(db: Database): Promise<UserSummary[]> {
  return (await db.select().from(user).orderBy(asc(user.username))).map(summary);
}

export async function findUserByUsername(db: Database, username: string): Promise<UserSummary | undefined> {
  const [row] = await db.select().from(user).where(eq(user.username, username));
  return row && summary(row);
}
