import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './auth-support';

// Seed 000's Python side, for real: e2e/seed000/roundtrip.py loads what Plangate stores with
// the seed's dataclasses, saves it back unchanged and checks the content hash, and loads the
// Behavior Controller's Phase 1 answer with `PlannerTask(**task)` (standard library only).

test('a Python client with seed 000 dataclasses round-trips a plan losslessly', async ({ baseURL }) => {
  const script = path.join(__dirname, 'seed000', 'roundtrip.py');
  const run = spawnSync('python3', [script, baseURL!], {
    env: { ...process.env, PLANGATE_TOKEN: E2E_ADMIN_TOKEN },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const output = `exit ${run.status ?? run.signal}${run.error ? ` (${run.error.message})` : ''}\n${run.stdout}\n${run.stderr}`;
  expect(run.status, output).toBe(0);
});
