import 'server-only';
import path from 'node:path';

// Resolved from the working directory because Next bundles server code into .next/,
// where import.meta.url no longer points at the source tree; `npm start` and the tests
// both run from the project root.
export const migrationsFolder = path.resolve(
  /* turbopackIgnore: true */ process.cwd(),
  process.env.PLANGATE_MIGRATIONS_DIR || 'lib/server/platform/db/migrations',
);
