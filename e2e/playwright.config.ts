import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';

// The tests drive real production servers over real HTTP: one on a fresh embedded
// PGlite database, and, when TEST_DATABASE_URL is set (always in CI), two instances
// sharing one fresh PostgreSQL database. The config is evaluated again in every worker,
// so the scratch locations are made once and handed down through the environment.

const root = path.resolve(__dirname, '..');

process.env.PLANGATE_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'plangate-e2e-'));
const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl && !process.env.PLANGATE_E2E_DATABASE_URL) {
  process.env.PLANGATE_E2E_DATABASE_URL = execFileSync('node', ['scripts/scratch-database.mjs', 'create', adminUrl], {
    cwd: root,
    encoding: 'utf8',
  });
}
const databaseUrl = process.env.PLANGATE_E2E_DATABASE_URL;

export const PORTS = { pglite: 3100, postgresA: 3101, postgresB: 3102 } as const;

function server(port: number, env: Record<string, string>) {
  return {
    command: `npx next start -p ${port}`,
    cwd: root,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

const chromium = {
  browserName: 'chromium' as const,
  viewport: { width: 1440, height: 900 },
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  },
};

const projects: PlaywrightTestConfig['projects'] = [
  { name: 'api-pglite', testMatch: /api\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${PORTS.pglite}` } },
  { name: 'browser', testMatch: /\.ui\.spec\.ts$/, use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.pglite}` } },
];
const webServer = [server(PORTS.pglite, { PLANGATE_DATA_DIR: process.env.PLANGATE_E2E_DATA_DIR })];

if (databaseUrl) {
  projects.push(
    { name: 'api-postgres', testMatch: /api\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${PORTS.postgresA}` } },
    { name: 'two-instances', testMatch: /two-instances\.spec\.ts$/ },
  );
  webServer.push(server(PORTS.postgresA, { DATABASE_URL: databaseUrl }), server(PORTS.postgresB, { DATABASE_URL: databaseUrl }));
}

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  globalTeardown: './global-teardown.ts',
  use: { trace: 'retain-on-failure' },
  projects,
  webServer,
});
