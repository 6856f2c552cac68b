const PROBE = 'http://plangate.invalid';

function staysOnSite(path: string): boolean {
  // "//host" and "/\host" are protocol-relative URLs to a browser: another site.
  if (!path.startsWith('/') || /^\/[/\\]/.test(path)) return false;
  try {
    return new URL(path, PROBE).origin === PROBE;
  } catch {
    return false;
  }
}

/**
 * The path to return to after sign-in, if and only if it stays on this site. Resolving it
 * as a URL catches every spelling browsers treat as another host ("//x", "/\x", tabs and
 * newlines inside "//"), which a prefix check misses; and the resolved path is checked
 * again, because resolving can itself produce one ("/..//evil" resolves to "//evil").
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !staysOnSite(value)) return '/';
  try {
    const url = new URL(value, PROBE);
    if (url.origin !== PROBE) return '/';
    const path = `${url.pathname}${url.search}${url.hash}`;
    return staysOnSite(path) ? path : '/';
  } catch {
    return '/';
  }
}
