import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { signInFailures } from '../platform/db/schema';

// better-auth's own rate limiter guards its HTTP router, which Plangate does not mount
// (sign-in runs in a server action), so sign-in attempts are counted here, in the
// database, so that the limits hold across every instance sharing it.
//
// An attempt is recorded BEFORE the password is checked (the hash is slow on purpose), so
// parallel guesses cannot all slip through while the first is still being verified; a
// successful sign-in then removes its own record, a failed one leaves it standing.
//
// Limits, in a sliding 15-minute window:
// - per username and client address: the 11th attempt and later are refused until the
//   oldest of the ten leaves the window. This stops one client, and only that client.
// - per username from anywhere: beyond 50, one attempt per 30 seconds. A slow-down, not a
//   lock, so nobody can shut a named user out by guessing from many addresses.
// When the client address is not known (no trusted proxy: see clientAddress), every client
// shares one bucket, and a hard limit there would let anyone lock a user out; so the
// slow-down applies from the 11th attempt instead: one attempt per 30 seconds.
//
// Known devices (OWASP's device cookies): a successful sign-in leaves a long-lived cookie
// naming a random device id, signed (HMAC) together with the username. An attempt that
// carries a valid one for its username is counted in that device's own bucket, with the
// hard per-client limit, and never in the per-user count or its slow-down. So whoever
// guesses a user's password can slow down devices that user has never signed in from,
// but cannot lock out one they have.

export const WINDOW_MS = 15 * 60 * 1000;
export const PER_CLIENT = 10;
export const PER_USER = 50;
export const SLOW_INTERVAL_MS = 30 * 1000;
/** The address of every client when no trusted proxy names it. */
export const UNKNOWN_ADDRESS = 'direct';
/** How long a known-device cookie lasts (renewed by every successful sign-in from it). */
export const DEVICE_COOKIE_DAYS = 180;
const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const DEVICE_KEY_CONTEXT = 'plangate known-device cookie v1';

const LOCK_KEY = 7_316_007;
const PRUNE_EVERY_MS = 60 * 1000;
let lastPrune = 0;

export type SignInAttempt = { allowed: true; ids: number[] } | { allowed: false; retryAfterSeconds: number };

function keys(username: string, address: string, device: string | null): { client: string; user: string } {
  return { client: device ? `${username}|device:${device}` : `${username}|${address}`, user: `${username}|*` };
}

/** The cookie of a known device for `username` (one per username, so a shared browser keeps each). */
export function deviceCookieName(username: string): string {
  return `plangate_device_${username}`;
}

function deviceMac(secret: string, username: string, device: string): string {
  const key = createHmac('sha256', secret).update(DEVICE_KEY_CONTEXT).digest();
  return createHmac('sha256', key).update(`${username}\n${device}`).digest('base64url');
}

/** A new device id: 16 random bytes, base64url. */
export function newDeviceId(): string {
  return randomBytes(16).toString('base64url');
}

/** The cookie value for `device` and `username`: `<device id>.<HMAC-SHA-256 of (username, device id)>`, under a key derived from `secret`. */
export function signDeviceCookie(secret: string, username: string, device: string): string {
  return `${device}.${deviceMac(secret, username, device)}`;
}

/** The device id of a known-device cookie if it is valid for `username` (signed with `secret`), otherwise null. */
export function knownDevice(secret: string, username: string, value: string | undefined | null): string | null {
  if (!value || value.length > 200) return null;
  const dot = value.indexOf('.');
  const device = value.slice(0, dot);
  if (dot < 0 || !DEVICE_ID_PATTERN.test(device)) return null;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(deviceMac(secret, username, device));
  return given.length === expected.length && timingSafeEqual(given, expected) ? device : null;
}

/** The known-device cookie's attributes: long-lived, httpOnly, Secure unless PLANGATE_INSECURE_COOKIES=1 (as the session's), SameSite=Lax. */
export function deviceCookieOptions(env: Record<string, string | undefined> = process.env) {
  return {
    httpOnly: true,
    secure: env.PLANGATE_INSECURE_COOKIES !== '1',
    sameSite: 'lax' as const,
    path: '/',
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  };
}

/**
 * The client's address for the limits. X-Forwarded-For is client-controlled unless a proxy
 * we trust rewrites it, so it is read only when PLANGATE_TRUST_PROXY says how many proxies
 * append to it: `1` (or `true`) takes the last entry (the one our proxy added), `2` the one
 * before it, and so on. Otherwise (and Next's server actions do not expose the socket
 * address) every client is UNKNOWN_ADDRESS.
 */
export function clientAddress(headers: Headers, env: Record<string, string | undefined> = process.env): string {
  const setting = env.PLANGATE_TRUST_PROXY?.trim().toLowerCase();
  const hops = setting === 'true' ? 1 : Number(setting);
  if (!Number.isInteger(hops) || hops < 1) return UNKNOWN_ADDRESS;
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const address = entries[entries.length - hops];
  return address ? address.slice(0, 100) : UNKNOWN_ADDRESS;
}

/**
 * Records a sign-in attempt for `username` from `address`, or refuses it. Call it before
 * checking the password; then call signInSucceeded (or signInAborted) with the result's ids.
 * `device` is the id of a valid known-device cookie for this username (see knownDevice):
 * such an attempt is limited in the device's own bucket only (PER_CLIENT per window).
 */
export async function beginSignInAttempt(
  db: Database,
  username: string,
  address: string,
  now: Date = new Date(),
  device: string | null = null,
): Promise<SignInAttempt> {
  if (now.getTime() - lastPrune > PRUNE_EVERY_MS) {
    lastPrune = now.getTime();
    await pruneSignInFailures(db, now);
  }
  const { client, user } = keys(username, address, device);
  const since = new Date(now.getTime() - WINDOW_MS);
  // A known device is its own client, whatever the address.
  const clientKnown = device !== null || address !== UNKNOWN_ADDRESS;
  return db.transaction(async (tx) => {
    // One decision at a time per username, across instances: count, then record.
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY}, hashtext(${username}))`);
    const recent = async (key: string) =>
      tx
        .select({ at: signInFailures.at })
        .from(signInFailures)
        .where(and(eq(signInFailures.key, key), gt(signInFailures.at, since)))
        .orderBy(signInFailures.at);
    if (clientKnown) {
      const byClient = await recent(client);
      if (byClient.length >= PER_CLIENT) {
        const freeAt = byClient[byClient.length - PER_CLIENT].at.getTime() + WINDOW_MS;
        return { allowed: false as const, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
      }
    }
    // A known device is never slowed down by what others do; nor does it count for them.
    const byUser = device === null ? await recent(user) : [];
    if (device === null && byUser.length >= (clientKnown ? PER_USER : PER_CLIENT)) {
      const freeAt = byUser[byUser.length - 1].at.getTime() + SLOW_INTERVAL_MS;
      if (freeAt > now.getTime()) return { allowed: false as const, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
    }
    const rows = await tx
      .insert(signInFailures)
      .values((device !== null ? [client] : clientKnown ? [user, client] : [user]).map((key) => ({ key, at: now })))
      .returning({ id: signInFailures.id });
    return { allowed: true as const, ids: rows.map((row) => row.id) };
  });
}

/** The password was right: the attempt is not a failure. Earlier failures stay counted. */
export async function signInSucceeded(db: Database, attempt: { ids: number[] }): Promise<void> {
  if (attempt.ids.length) await db.delete(signInFailures).where(inArray(signInFailures.id, attempt.ids));
}

/** The check could not be made (an internal error): the attempt does not count either. */
export const signInAborted = signInSucceeded;

/** Drops records that have left the window. */
export async function pruneSignInFailures(db: Database, now: Date = new Date()): Promise<void> {
  await db.delete(signInFailures).where(lt(signInFailures.at, new Date(now.getTime() - WINDOW_MS)));
}

/** "Try again in 40 seconds." / "Try again in 3 minutes." */
export function retryMessage(retryAfterSeconds: number): string {
  const wait =
    retryAfterSeconds < 90
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return `Too many failed sign-ins. Try again in ${wait}.`;
}
