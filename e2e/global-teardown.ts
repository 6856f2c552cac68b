import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

// Scratch locations made by playwright.config.ts; nothing a test run creates outlives it.
export default function globalTeardown() {
  const { TEST_DATABASE_URL, PLANGATE_E2E_DATABASE_URL, PLANGATE_E2E_DATA_DIR } = process.env;
  if (TEST_DATABASE_URL && PLANGATE_E2E_DATABASE_URL) {
    execFileSync('node', ['scripts/scratch-database.mjs', 'drop', TEST_DATABASE_URL, PLANGATE_E2E_DATABASE_URL], {
      cwd: path.resolve(__dirname, '..'),
      stdio: 'inherit',
    });
  }
  if (PLANGATE_E2E_DATA_DIR) rmSync(PLANGATE_E2E_DATA_DIR, { recursive: true, force: true });
}
