'use server';

import { APIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { checkOrigin } from '@/lib/server/auth/origin';
import { getAuth } from '@/lib/server/auth/auth';
import { AppError } from '@/lib/server/errors';

export interface SignInState {
  error: string | null;
}

/** Only same-site paths: a crafted ?next= must not send a fresh session to another site. */
function safeNext(value: FormDataEntryValue | null): string {
  const next = typeof value === 'string' ? value : '/';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
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
  try {
    const auth = await getAuth();
    await auth.api.signInUsername({ body: { username, password }, headers: requestHeaders });
  } catch (error) {
    if (error instanceof APIError) return { error: 'Wrong username or password.' };
    throw error;
  }
  redirect(safeNext(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers: await headers() }).catch(() => undefined);
  redirect('/sign-in');
}
