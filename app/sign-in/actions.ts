'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { USERNAME_PATTERN } from '@/lib/api/gate-schemas';
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
import { getDatabase } from '@/lib/server/db/connection';

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

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const requestHeaders = await headers();
  try {
    checkOrigin('POST', requestHeaders);
  } catch (error) {
    const message = refusalMessage(error);
    if (message === null) throw error;
    return { error: message };
  }
  const typed = String(form.get('username') ?? '').slice(0, 200);
  const username = typed.trim().toLowerCase();
  const password = String(form.get('password') ?? '');
  if (!username || !password) return { error: 'Enter your username and password.', username: typed };
  // No account can have another name; nothing to count or check.
  if (!USERNAME_PATTERN.test(username)) return { error: WRONG, username: typed };

  const { db } = await getDatabase();
  // A browser this user has signed in from before is limited on its own, never by others' guesses.
  const secret = authSecret();
  const jar = await cookies();
  const device = knownDevice(secret, username, jar.get(deviceCookieName(username))?.value);
  // Counted before the (deliberately slow) password check, so parallel guesses cannot all pass.
  const attempt = await beginSignInAttempt(db, username, clientAddress(requestHeaders), new Date(), device);
  if (!attempt.allowed) return { error: retryMessage(attempt.retryAfterSeconds), username: typed };
  try {
    const auth = await getAuth();
    await auth.api.signInUsername({ body: { username, password }, headers: requestHeaders });
  } catch (error) {
    if (isRefusal(error)) return { error: WRONG, username: typed }; // the attempt stays counted
    await signInAborted(db, attempt).catch(() => undefined);
    throw error;
  }
  await signInSucceeded(db, attempt);
  // Remember (or renew) this browser as a known device of this user.
  jar.set(deviceCookieName(username), signDeviceCookie(secret, username, device ?? newDeviceId()), deviceCookieOptions());
  redirect(safeNext(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers: await headers() }).catch(() => undefined);
  redirect('/sign-in');
}
