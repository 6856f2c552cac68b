import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
// Tests make audit keys and the "trail is signed" marker; kept out of the repository's own
// .keys so a developer's local server never inherits them.
const keyDir = process.env.PLANGATE_KEY_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'plangate-unit-keys-'));

export default defineConfig({
  root,
  resolve: {
    alias: {
      '@': root,
      // lib/server files import 'server-only' so Next refuses them in a client bundle; outside
      // Next (no react-server condition) the marker throws, and unit tests are server code.
      'server-only': path.join(root, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['scripts/vitest-global-setup.ts'],
    // Files run one after another in each worker's process rather than each in a new one:
    // starting a process and importing the server code again for each of ~170 files was over a
    // third of the suite's CPU. Every file opens its own databases and servers and closes them;
    // vitest-file-env.ts puts back the environment a file changed.
    isolate: false,
    setupFiles: ['scripts/vitest-file-env.ts'],
    // One worker per core: most of a repository test's time is spent waiting on a database
    // or a server, so two files at once fill the machine without making either slower.
    maxWorkers: Math.max(2, os.availableParallelism()),
    env: { PLANGATE_KEY_DIR: keyDir },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
