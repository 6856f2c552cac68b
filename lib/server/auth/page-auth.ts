import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { redirect } from 'next/navigation';
import { safeNext } from '@/lib/auth/safe-next';
import { authenticate, type Principal } from './principal';

/** A page's query as Next passes it (`searchParams`). */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/**
 * The signed-in operator for a page, or null (a bad cookie is the same as none). Cached
 * per request: the layout, the page and its data loaders all ask, one lookup answers.
 */
export const currentUser = cache(async (): Promise<Principal | null> => authenticate(await headers()).catch(() => null));

/**
 * Where sign-in returns to: the page's path with its whole query (`?task=…&view=…`), in
 * the order given, kept on this site by safeNext (anything else returns to `/`).
 */
export function returnPath(path: string, query?: PageSearchParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, one);
  }
  const search = params.toString();
  return safeNext(search ? `${path}?${search}` : path);
}

/**
 * Pages read plans, so every page needs a signed-in user. A signed-out visitor goes to
 * sign-in with `next` = this page's path (as the page spells it) and query (its
 * `searchParams`), so a shared link opens what was shared once they have signed in.
 */
export async function requirePageUser(path: string, searchParams?: PageSearchParams | Promise<PageSearchParams>): Promise<Principal> {
  const user = await currentUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(returnPath(path, await searchParams))}`);
  return user;
}
