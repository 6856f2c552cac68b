// Sent with every page, route handler and static file. The Content-Security-Policy, with its
// per-request script nonce, is the proxy's (proxy.ts).
const SECURITY_HEADERS = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files it loads from its own package folder at run
  // time; bundling it would break those paths. pg has optional native bindings; pg-boss
  // and the protocol SDKs load as the packages they are (ESM, optional peers); so does
  // undici, whose connector the dispatch address guard (lib/server/runs/dispatch) wraps.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pg-boss', '@modelcontextprotocol/sdk', '@a2a-js/sdk', 'undici'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // The type check is `npm run typecheck` (tsc over every file, tests included), which
  // `npm test` runs beside the build; the build's own check covers a subset of the same files.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // A fresh CI clone has no build cache to reuse, so writing one there is ~12 s for nothing.
    turbopackFileSystemCacheForBuild: !process.env.CI,
    // Saving sends the whole plan; plans may be up to 10 MB (PLAN_LIMITS.maxPlanBytes),
    // and the service answers an oversized one with a clear 413 of its own.
    serverActions: { bodySizeLimit: '11mb' },
    // The stylesheet (Tailwind's and React Flow's, about 60 kB) goes in each page's <head>
    // instead of a <link>: a first visit paints as the HTML arrives instead of after a second
    // request, which was 50-150 ms of a plan's first picture. Each page then carries the styles
    // (about 12 kB compressed) where a return visit had them cached. Experimental in Next 16:
    // `npm test` covers every page with it (the CSP allows inline styles: React Flow needs them).
    inlineCss: true,
  },
  async headers() {
    return [{ source: '/:path*', headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
