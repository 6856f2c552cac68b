import 'server-only';

// The Content-Security-Policy of every response. Scripts run only from this origin and with
// the request's nonce (Next puts it on the scripts it writes into a page; 'strict-dynamic'
// lets them load the bundles they import), never inline without it. React Flow positions
// nodes with inline styles, hence 'unsafe-inline' for styles only; the layout Web Worker is
// a bundled file ('self') and may also start from a blob: URL. 'unsafe-eval' and the dev
// server's websocket only in `next dev`.

export function contentSecurityPolicy(nonce: string, development = process.env.NODE_ENV === 'development'): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${development ? ' ws: wss:' : ''}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
