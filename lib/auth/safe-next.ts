const PROBE = 'http://plangate.invalid';

/**
 * The path to return to after sign-in, if and only if it stays on this site. Resolving it
 * as a URL catches every spelling browsers treat as another host ("//x", "/\x", tabs and
 * newlines inside "//"), which a prefix check misses.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/';
  try {
    const url = new URL(value, PROBE);
    return url.origin === PROBE ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}
