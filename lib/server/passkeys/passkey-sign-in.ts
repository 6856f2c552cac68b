import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, count, eq, isNull, lt } from 'drizzle-orm';
import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { AuthenticationResponse } from '@/lib/api/passkey-schemas';
import { appendAudit } from '../audit/audit-log';
import type { Database } from '../platform/db/client';
import { passkeyChallenges, passkeys } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { checkedOrigin, readClientData, type RelyingParty } from './relying-party';
import { verifyAssertion } from './verify-assertion';

// Signing in with a passkey instead of a password: the person names their account, their
// authenticator answers a one-use challenge with one of that account's keys (user verified),
// and the caller then starts the session (app/sign-in/actions.ts, under the same sign-in
// limits as a password). A revoked key signs nobody in.

const SIGN_IN_TTL_MS = 5 * 60_000;
const MAX_OPEN_CHALLENGES = 5;
/** The one answer to a refused passkey sign-in, whatever was wrong. */
export const PASSKEY_SIGN_IN_REFUSED = 'The passkey did not sign you in. Try again, or use your password.';

/** The options for navigator.credentials.get(): the account's keys, and a challenge kept for one answer. */
export async function signInOptions(db: Database, username: string, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const keys = await db.select().from(passkeys).where(and(eq(passkeys.username, username), isNull(passkeys.revokedAt)));
  // An account without keys gets options all the same, so this never says which accounts have keys.
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: keys.map((key) => ({ id: key.kid, transports: key.transports as never })),
    userVerification: 'required',
    timeout: 120_000,
  });
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, new Date()));
  // Kept only for an account that has keys, and a few at a time: asking costs no sign-in
  // attempt, so it must not let anyone fill the table.
  if (keys.length === 0) return options;
  const [{ open }] = await db.select({ open: count() }).from(passkeyChallenges).where(eq(passkeyChallenges.username, username));
  if (open >= MAX_OPEN_CHALLENGES) throw new AppError('rate_limited', 429, 'Too many passkey sign-ins were started for this account; wait five minutes and try again.', undefined, { retry_after_seconds: SIGN_IN_TTL_MS / 1000 });
  await db.insert(passkeyChallenges).values({ id: randomBytes(16).toString('base64url'), username, challenge: options.challenge, expiresAt: new Date(Date.now() + SIGN_IN_TTL_MS) });
  return options;
}

/** Checks the authenticator's answer for `username`; the challenge is spent whatever the outcome. Throws a 401 that says nothing more than that it failed. */
export async function verifySignIn(db: Database, username: string, rp: RelyingParty, response: AuthenticationResponse): Promise<void> {
  const { challenge, type } = readClientData(response.response.clientDataJSON);
  // Spent before anything is checked, in its own statement: a refused answer does not keep it alive.
  const [issued] = await db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.username, username), eq(passkeyChallenges.challenge, challenge)))
    .returning();
  await db.transaction(async (tx) => {
    const [key] = await tx.select().from(passkeys).where(eq(passkeys.kid, response.id)).for('update');
    if (!issued || issued.expiresAt < new Date() || type !== 'webauthn.get' || !key || key.username !== username || key.revokedAt) {
      throw new AppError('unauthenticated', 401, PASSKEY_SIGN_IN_REFUSED);
    }
    const origin = checkedOrigin(rp, response.response.clientDataJSON, key.rpId, 'You were not signed in.');
    const outcome = await verifyAssertion(key, response.response, issued.challenge, origin);
    if (!outcome.verified) throw new AppError('unauthenticated', 401, PASSKEY_SIGN_IN_REFUSED);
    await tx.update(passkeys).set({ counter: outcome.newCounter }).where(eq(passkeys.kid, key.kid));
    await appendAudit(tx, { kind: 'passkey_sign_in', actor: username, detail: { username, kid: key.kid } });
  });
}
