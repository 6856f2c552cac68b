import { headers } from 'next/headers';
import { cache } from 'react';
import { redirect } from 'next/navigation';
import { authenticate, type Principal } from './principal';

/**
 * The signed-in operator for a page, or null (a bad cookie is the same as none). Cached
 * per request: the layout, the page and its data loaders all ask, one lookup answers.
 */
export const currentUser = cache(async (): Promise<Principal | null> => authenticate(await headers()).catch(() => null));

/** Pages read plans, so every page needs a signed-in user; `next` brings them back after. */
export async function requirePageUser(next: string): Promise<Principal> {
  const user = await currentUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(next)}`);
  return user;
}
