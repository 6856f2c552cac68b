import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { CreateTokenRequest } from '@/lib/api/gate-schemas';
import { roleOf } from '@/lib/auth/roles';
import type { Database } from '../platform/db/client';
import { apiTokens, user } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { appendAudit } from '../audit/audit-log';
import type { Principal } from './principal-type';
import { createUser } from './users';

// Bearer tokens for automation. Only a SHA-256 of each token is stored: the tokens are
// 256 random bits, so a fast hash is enough and a lookup is one indexed equality.

const TOKEN_PREFIX = 'pgt_';

export function hashToken(token: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(token)));
}

export async function createApiToken(
  db: Database,
  input: { username: string; label?: string; expiresAt?: Date | null },
  actor: string,
): Promise<{ token: string; id: string; expires_at: string | null }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ id: user.id }).from(user).where(eq(user.username, input.username));
    if (!owner) throw notFound(`User "${input.username}"`);
    const id = crypto.randomUUID();
    await tx.insert(apiTokens).values({
      id,
      userId: owner.id,
      label: input.label ?? '',
      tokenHash: hashToken(token),
      expiresAt: input.expiresAt ?? null,
    });
    await appendAudit(tx, { kind: 'token_created', actor, detail: { username: input.username, token_id: id, label: input.label ?? '' } });
    return { token, id, expires_at: input.expiresAt?.toISOString() ?? null };
  });
}

/** Operator access (the CLI, straight on the database): tokens for service accounts only. */
export async function createServiceToken(
  db: Database,
  input: { username: string; label?: string; expiresAt?: Date | null },
  actor: string,
): Promise<{ token: string; id: string; expires_at: string | null }> {
  const [owner] = await db.select({ service: user.service }).from(user).where(eq(user.username, input.username));
  if (!owner) throw notFound(`User "${input.username}"`);
  if (!owner.service) {
    throw new AppError(
      'forbidden',
      403,
      `${input.username} is a person, not a service account: a token acts in its owner's name, so only ${input.username} can create one, signed in (POST /api/tokens)`,
    );
  }
  return createApiToken(db, input, actor);
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tokens from the API and UI expire unless asked otherwise; a forgotten token should not live for ever. */
export const DEFAULT_TOKEN_DAYS = 90;

/**
 * A token acts as the user it belongs to, so it is made only by that user (signed in, for
 * themselves, with a session) or, for a service account, by an admin. An admin cannot mint
 * a token for another person: it would let them act, and approve, in that person's name.
 */
export async function issueToken(db: Database, request: CreateTokenRequest, principal: Principal) {
  const username = request.username ?? principal.username;
  if (username === principal.username && principal.via === 'token' && !(principal.service && principal.role === 'admin')) {
    // A token that could mint tokens for its owner would outlive its own expiry and revocation.
    throw new AppError('forbidden', 403, 'Sign in to create a token for yourself: a token cannot create another token for its owner');
  }
  if (username !== principal.username) {
    if (principal.role !== 'admin') throw new AppError('forbidden', 403, 'Only an admin can create a token for another user, and only for a service account');
    const [owner] = await db.select({ service: user.service }).from(user).where(eq(user.username, username));
    if (!owner) throw notFound(`User "${username}"`);
    if (!owner.service) {
      throw new AppError(
        'forbidden',
        403,
        `${username} is a person, not a service account: a token acts in its owner's name, so only ${username} can create one, signed in, for themselves`,
      );
    }
  }
  const expiresAt = new Date(Date.now() + (request.expires_in_days ?? DEFAULT_TOKEN_DAYS) * DAY_MS);
  const created = await createApiToken(db, { username, label: request.label, expiresAt }, principal.username);
  return { ...created, username };
}

/** The user a live (unexpired, unrevoked) token belongs to, or null. */
export async function principalFromToken(db: Database, token: string): Promise<Principal | null> {
  const [row] = await db
    .select({ id: user.id, username: user.username, name: user.name, role: user.role, service: user.service })
    .from(apiTokens)
    .innerJoin(user, eq(user.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(token)),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, new Date())),
      ),
    );
  if (!row) return null;
  return { id: row.id, username: row.username ?? row.name, role: roleOf(row.role), via: 'token', service: row.service };
}

const ENV_TOKEN_ID = 'plangate-admin-token';
const ENV_TOKEN_USER = 'plangate-admin';

export const MIN_ENV_TOKEN_LENGTH = 32;

async function envTokenOwner(db: Database): Promise<string> {
  const find = async () => (await db.select({ id: user.id, service: user.service }).from(user).where(eq(user.username, ENV_TOKEN_USER)))[0];
  const existing = await find();
  if (existing) {
    // Made before service accounts existed, or by hand: it is automation, never a person.
    if (!existing.service) await db.update(user).set({ service: true, updatedAt: new Date() }).where(eq(user.id, existing.id));
    return existing.id;
  }
  try {
    return (await createUser(db, { username: ENV_TOKEN_USER, password: null, role: 'admin', service: true }, 'system')).id;
  } catch (error) {
    // Another instance starting on the same database made it first.
    if (error instanceof AppError && error.status === 409) return (await find())!.id;
    throw error;
  }
}

/**
 * Makes PLANGATE_ADMIN_TOKEN a working admin token: owned by a service account that has
 * no password, so the value in the environment is the only way in as that account.
 * Removing the variable revokes the token at the next start.
 */
export async function ensureEnvAdminToken(db: Database, token: string | undefined): Promise<void> {
  if (!token) {
    await db.update(apiTokens).set({ revokedAt: new Date() }).where(and(eq(apiTokens.id, ENV_TOKEN_ID), isNull(apiTokens.revokedAt)));
    return;
  }
  if (token.length < MIN_ENV_TOKEN_LENGTH) {
    throw new Error(`PLANGATE_ADMIN_TOKEN must be at least ${MIN_ENV_TOKEN_LENGTH} characters (try: openssl rand -base64 32)`);
  }
  const ownerId = await envTokenOwner(db);
  const tokenHash = hashToken(token);
  const [current] = await db.select().from(apiTokens).where(eq(apiTokens.id, ENV_TOKEN_ID));
  if (current?.tokenHash === tokenHash && !current.revokedAt) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(apiTokens)
      .values({ id: ENV_TOKEN_ID, userId: ownerId, label: 'PLANGATE_ADMIN_TOKEN', tokenHash })
      .onConflictDoUpdate({ target: apiTokens.id, set: { tokenHash, revokedAt: null, expiresAt: null } });
    await appendAudit(tx, { kind: 'token_created', actor: 'system', detail: { username: ENV_TOKEN_USER, token_id: ENV_TOKEN_ID, label: 'PLANGATE_ADMIN_TOKEN' } });
  });
}

/** Revokes a token: its owner may, and so may an admin. Revoking twice is not an error. */
export async function revokeToken(db: Database, tokenId: string, principal: Principal): Promise<{ id: string; revoked_at: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: apiTokens.id, owner: user.username, revokedAt: apiTokens.revokedAt })
      .from(apiTokens)
      .innerJoin(user, eq(user.id, apiTokens.userId))
      .where(eq(apiTokens.id, tokenId));
    // Someone else's token is "not found" to a non-admin: its existence is not theirs to learn.
    if (!row || (row.owner !== principal.username && principal.role !== 'admin')) throw notFound(`Token "${tokenId.slice(0, 64)}"`);
    if (row.revokedAt) return { id: row.id, revoked_at: row.revokedAt.toISOString() };
    const revokedAt = new Date();
    await tx.update(apiTokens).set({ revokedAt }).where(eq(apiTokens.id, tokenId));
    await appendAudit(tx, { kind: 'token_revoked', actor: principal.username, detail: { username: row.owner, token_id: tokenId } });
    return { id: row.id, revoked_at: revokedAt.toISOString() };
  });
}
