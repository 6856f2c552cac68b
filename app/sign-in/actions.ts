'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { USERNAME_PATTERN } from '@/lib/api/gate-schemas';
import { inlineAccountRefusal } from '@/lib/auth/inline-account';
import { safeNext } from '@/lib/auth/safe-next';
import { checkOrigin } from '@/lib/server/auth/origin';
import { getAuth } from '@/lib/server/auth/auth';
import { authSecret } from '@/lib/server/auth/auth-secret';
import {
  beginSignInAttempt,
  clientAddress,
  deviceCookieName,
  deviceCookieOptions,
  knownDevice,
  newDeviceId,
  retryMessage,
  signDeviceCookie,
  signInAborted,
  signInSucceeded,
} from '@/lib/server/auth/sign-in-limiter';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { PASSKEY_SIGN_IN_REFUSED, signInOptions, verifySignIn } from '@/lib/server/passkeys/passkey-sign-in';
import { relyingPartyOf } from '@/lib/server/passkeys/relying-party';
import { AuthenticationResponse } from '@/lib/api/passkey-schemas';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { findUserByUsername } from '@/lib/server/auth/users';
import type { ActionResult } from '@/lib/server/platform/action';
import { roleOf, type Role } from '@/lib/auth/roles';

export interface SignInState {
  error: string | null;
  /** What the user typed, so a refused attempt does not empty the field. */
  username?: string;
}

const WRONG = 'Wrong username or password.';

/**
 * better-auth refuses a sign-in by throwing its APIError. `instanceof` cannot be trusted
 * across the production build's bundles (the class can exist twice), so the error is
 * recognised by its shape: a 4xx status from better-auth is a refused sign-in.
 */
function isRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, statusCode } = error as { name?: unknown; statusCode?: unknown };
  return name === 'APIError' && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
}

/** The error AppError-like objects carry (checkOrigin), again without instanceof. */
function refusalMessage(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, message } = error as { status?: unknown; message?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string' ? message : null;
}

type Attempt = { ok: true; username: string } | { ok: false; error: string; username?: string };

/** How a sign-in proves who it is; it starts the session when it does, and refuses otherwise. */
type Proof = { missing: string | null; start: (username: string, requestHeaders: Headers) => Promise<void>; refused: string };

/**
 * Signs in with the session cookie set on this response, under the sign-in limits and the
 * known-device rules. One path for the sign-in page, the editor's inline sign-in and passkeys.
 */
async function attemptSignIn(typedName: unknown, proof: Proof): Promise<Attempt> {
  const requestHeaders = await headers();
  try {
    checkOrigin('POST', requestHeaders);
  } catch (error) {
    const message = refusalMessage(error);
    if (message === null) throw error;
    return { ok: false, error: message };
  }
  const typed = String(typedName ?? '').slice(0, 200);
  const username = typed.trim().toLowerCase();
  if (!username || proof.missing) return { ok: false, error: proof.missing ?? 'Enter your username.', username: typed };
  // No account can have another name; nothing to count or check.
  if (!USERNAME_PATTERN.test(username)) return { ok: false, error: proof.refused, username: typed };

  const { db } = await getDatabase();
  // A browser this user has signed in from before is limited on its own, never by others' guesses.
  const secret = authSecret();
  const jar = await cookies();
  const device = knownDevice(secret, username, jar.get(deviceCookieName(username))?.value);
  // Counted before the (deliberately slow) check, so parallel guesses cannot all pass.
  const attempt = await beginSignInAttempt(db, username, clientAddress(requestHeaders), new Date(), device);
  if (!attempt.allowed) return { ok: false, error: retryMessage(attempt.retryAfterSeconds), username: typed };
  try {
    await proof.start(username, requestHeaders);
  } catch (error) {
    if (isRefusal(error) || refusalMessage(error) !== null) return { ok: false, error: proof.refused, username: typed }; // the attempt stays counted
    await signInAborted(db, attempt).catch(() => undefined);
    throw error;
  }
  await signInSucceeded(db, attempt);
  // Remember (or renew) this browser as a known device of this user.
  jar.set(deviceCookieName(username), signDeviceCookie(secret, username, device ?? newDeviceId()), deviceCookieOptions());
  return { ok: true, username };
}

/** A password: better-auth checks it and starts the session. */
function passwordProof(typedPassword: unknown): Proof {
  const password = String(typedPassword ?? '');
  return {
    missing: password ? null : 'Enter your username and password.',
    refused: WRONG,
    start: async (username, requestHeaders) => {
      const auth = await getAuth();
      await auth.api.signInUsername({ body: { username, password }, headers: requestHeaders });
    },
  };
}

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const result = await attemptSignIn(form.get('username'), passwordProof(form.get('password')));
  if (!result.ok) return { error: result.error, username: result.username };
  redirect(safeNext(form.get('next')));
}

/**
 * Signs in without leaving the page (the editor's inline sign-in after a session ended):
 * a typed result instead of a redirect, with the role, so the caller can say when the
 * account cannot do what was asked. Only `expected_username`, the user whose session ended,
 * may sign in here: the edits waiting to be saved are theirs, and saving them under another
 * account would forge their author (and the four-eyes rule with it). Another name is
 * refused before any sign-in is attempted.
 */
export async function signInInlineAction(input: {
  username: string;
  password: string;
  expected_username: string;
}): Promise<ActionResult<{ username: string; role: Role }>> {
  const fields = typeof input === 'object' && input !== null ? input : { username: '', password: '', expected_username: '' };
  const expected = String(fields.expected_username ?? '');
  if (!expected.trim()) return { ok: false, error: { code: 'bad_request', message: 'Open the sign-in page to sign in.' } };
  const refusal = inlineAccountRefusal(expected, String(fields.username ?? ''));
  if (refusal) return { ok: false, error: { code: 'forbidden', message: refusal } };
  const result = await attemptSignIn(fields.username, passwordProof(fields.password));
  if (!result.ok) return { ok: false, error: { code: 'unauthenticated', message: result.error } };
  const { db } = await getDatabase();
  const account = await findUserByUsername(db, result.username);
  return { ok: true, data: { username: result.username, role: roleOf(account?.role) } };
}

/** Starts a passkey sign-in for the named account: the options for navigator.credentials.get(). */
export async function passkeySignInOptionsAction(input: { username: string }): Promise<ActionResult<PublicKeyCredentialRequestOptionsJSON>> {
  const requestHeaders = await headers();
  const username = String(input?.username ?? '').trim().toLowerCase().slice(0, 64);
  if (!USERNAME_PATTERN.test(username)) return { ok: false, error: { code: 'bad_request', message: 'Enter your username first, then use your passkey.' } };
  try {
    checkOrigin('POST', requestHeaders);
  } catch (error) {
    return { ok: false, error: { code: 'forbidden', message: refusalMessage(error) ?? 'Refused' } };
  }
  const { db } = await getDatabase();
  try {
    return { ok: true, data: await signInOptions(db, username, relyingPartyOf(requestHeaders)) };
  } catch (error) {
    const message = refusalMessage(error);
    if (message === null) throw error;
    return { ok: false, error: { code: 'rate_limited', message } };
  }
}

/** Signs in with the authenticator's answer, under the same limits as a password; answers where to go next (a path on this site). */
export async function passkeySignInAction(input: { username: string; response: unknown; next: string }): Promise<ActionResult<{ next: string }>> {
  const response = AuthenticationResponse.safeParse(input?.response);
  const result = await attemptSignIn(input?.username, {
    missing: response.success ? null : PASSKEY_SIGN_IN_REFUSED,
    refused: PASSKEY_SIGN_IN_REFUSED,
    start: async (username, requestHeaders) => {
      const { db } = await getDatabase();
      await verifySignIn(db, username, relyingPartyOf(requestHeaders), response.data!);
      const auth = await getAuth();
      await auth.api.startPasskeySession({ body: { username }, headers: requestHeaders });
    },
  });
  if (!result.ok) return { ok: false, error: { code: 'unauthenticated', message: result.error } };
  return { ok: true, data: { next: safeNext(input?.next) } };
}

export async function signOutAction(): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers: await headers() }).catch(() => undefined);
  redirect('/sign-in');
}
