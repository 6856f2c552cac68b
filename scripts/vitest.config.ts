import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { '@': root } },
  test: {
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The repository tests open real databases; one file at a time per worker keeps
    // PGlite start-up and PostgreSQL connections predictable on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
