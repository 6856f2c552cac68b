'use server';

import { APIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { safeNext } from '@/lib/auth/safe-next';
import { checkOrigin } from '@/lib/server/auth/origin';
import { getAuth } from '@/lib/server/auth/auth';
import { clearSignInFailures, recordSignInFailure, signInBlockedFor } from '@/lib/server/auth/sign-in-limiter';
import { AppError } from '@/lib/server/errors';

export interface SignInState {
  error: string | null;
}


export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const requestHeaders = await headers();
  try {
    checkOrigin('POST', requestHeaders);
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  }
  const username = String(form.get('username') ?? '').trim().toLowerCase();
  const password = String(form.get('password') ?? '');
  if (!username || !password) return { error: 'Enter your username and password.' };
  const address = requestHeaders.get('x-forwarded-for')?.split(',')[0].trim() || requestHeaders.get('x-real-ip') || 'direct';
  const wait = signInBlockedFor(username, address);
  if (wait > 0) return { error: `Too many failed sign-ins. Try again in ${wait} minute${wait === 1 ? '' : 's'}.` };
  try {
    const auth = await getAuth();
    await auth.api.signInUsername({ body: { username, password }, headers: requestHeaders });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    recordSignInFailure(username, address);
    return { error: 'Wrong username or password.' };
  }
  clearSignInFailures(username, address);
  redirect(safeNext(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers: await headers() }).catch(() => undefined);
  redirect('/sign-in');
}
