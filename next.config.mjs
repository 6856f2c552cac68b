/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files it loads from its own package folder at run
  // time; bundling it would break those paths. pg has optional native bindings.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  experimental: {
    // Saving sends the whole plan; plans may be up to 10 MB (PLAN_LIMITS.maxPlanBytes),
    // and the service answers an oversized one with a clear 413 of its own.
    serverActions: { bodySizeLimit: '11mb' },
  },
};

export default nextConfig;
