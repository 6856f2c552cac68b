/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files it loads from its own package folder at run
  // time; bundling it would break those paths. pg has optional native bindings.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
