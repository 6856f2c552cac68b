import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { E2E_ADMIN_TOKEN, EDITOR_STATE, adminHeaders } from './auth-support';
import { PORTS } from './ports';
import { serveArgs } from './server-process';

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
// With DATABASE_URL no instance makes a key (each would make its own): the two PostgreSQL
// instances are given the same audit key and session secret, as a deployment must.
process.env.PLANGATE_E2E_AUDIT_KEY ??= randomBytes(32).toString('base64url');
process.env.PLANGATE_E2E_AUTH_SECRET ??= randomBytes(32).toString('base64url');
const sharedKeys = { PLANGATE_AUDIT_KEY: process.env.PLANGATE_E2E_AUDIT_KEY, PLANGATE_AUTH_SECRET: process.env.PLANGATE_E2E_AUTH_SECRET };

// Tasks run against test servers on this machine (an LLM, MCP servers, webhook receivers), which
// dispatch refuses unless the operator allows loopback; the servers specs start themselves
// inherit this environment.
process.env.PLANGATE_DISPATCH_ALLOW ??= '127.0.0.1';
// The one secret a webhook resource may name in these tests (a Python executor's, see
// python-client.ui.spec.ts): the servers read it from E2E_EXECUTOR_SECRET, allowed by list.
process.env.E2E_EXECUTOR_SECRET ??= randomBytes(24).toString('base64url');



function server(port: number, env: Record<string, string>) {
  return {
    command: ['npx', ...serveArgs(port)].join(' '),
    cwd: root,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NEXT_TELEMETRY_DISABLED: '1',
      PLANGATE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      PLANGATE_DISPATCH_ALLOW: process.env.PLANGATE_DISPATCH_ALLOW!,
      PLANGATE_DISPATCH_SECRETS: 'E2E_EXECUTOR_SECRET',
      E2E_EXECUTOR_SECRET: process.env.E2E_EXECUTOR_SECRET!,
      // Where executors that answered 202 post their results.
      PLANGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

// Debian's chromium-headless-shell: the build Playwright itself runs for headless tests, without
// the full browser's UI process work, so a page costs about a third less CPU than in
// /usr/bin/chromium, which matters on a 2-core machine running the unit tests beside it.
const chromium = {
  browserName: 'chromium' as const,
  viewport: { width: 1440, height: 900 },
  launchOptions: {
    executablePath: '/usr/bin/chromium-headless-shell',
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
  { name: 'api-pglite', testMatch: /(api|seed000)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${PORTS.pglite}`, extraHTTPHeaders: adminHeaders } },
  { name: 'browser-setup', testMatch: /auth\.setup\.ts$/, use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.pglite}` } },
  {
    name: 'browser',
    testMatch: /\.ui\.spec\.ts$/,
    dependencies: ['browser-setup'],
    use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.pglite}`, storageState: EDITOR_STATE },
  },
  // Headers, framing, sign-in limits and token ownership; each test signs in itself.
  { name: 'security', testMatch: /security\.spec\.ts$/, use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.pglite}` } },
  // A run that outlives its server: the spec starts, kills and restarts a server of its own.
  { name: 'run-crash', testMatch: /run-crash\.spec\.ts$/, use: { ...chromium, extraHTTPHeaders: adminHeaders } },
  // Outgoing webhooks to a receiver the test runs; signs in an approver and the admin itself.
  { name: 'webhooks', testMatch: /webhooks\.spec\.ts$/, use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.pglite}` } },
];
// The embedded database is the demo: its published demo users (editor, approvers, admin)
// are what the browser tests sign in as.
const webServer = [server(PORTS.pglite, { PLANGATE_DATA_DIR: process.env.PLANGATE_E2E_DATA_DIR, PLANGATE_DEMO_USERS: 'on' })];

if (databaseUrl) {
  projects.push(
    { name: 'api-postgres', testMatch: /(api|seed000)\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${PORTS.postgresA}`, extraHTTPHeaders: adminHeaders } },
    // A browser too: sign-in is a server action, driven through the real form.
    { name: 'two-instances', testMatch: /two-instances\.spec\.ts$/, use: { ...chromium, extraHTTPHeaders: adminHeaders } },
    { name: 'authorization', testMatch: /authorization\.spec\.ts$/, use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.postgresA}` } },
    { name: 'integrity', testMatch: /integrity\.spec\.ts$/, use: { ...chromium, baseURL: `http://127.0.0.1:${PORTS.postgresA}` } },
    // Two servers of the spec's own on a scratch database share a run; one is killed.
    { name: 'run-instances', testMatch: /run-instances\.spec\.ts$/, use: { ...chromium, extraHTTPHeaders: adminHeaders } },
  );
  webServer.push(
    server(PORTS.postgresA, { DATABASE_URL: databaseUrl, ...sharedKeys }),
    server(PORTS.postgresB, { DATABASE_URL: databaseUrl, ...sharedKeys }),
  );
}

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  forbidOnly: true,
  workers: Number(process.env.PLANGATE_E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list']],
  // Sized for a 2-core machine running three servers, PostgreSQL and two browsers at once,
  // and still passing with more workers than cores: assertions wait on state, so a larger
  // bound costs nothing when the machine is quick.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  globalTeardown: './global-teardown.ts',
  // Recording a trace costs every test about a third more browser CPU, failing or not, so it
  // is off unless asked for (PLANGATE_E2E_TRACE=retain-on-failure); a failure keeps a screenshot.
  use: { trace: (process.env.PLANGATE_E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | undefined) ?? 'off', screenshot: 'only-on-failure' },
  projects,
  webServer,
});
