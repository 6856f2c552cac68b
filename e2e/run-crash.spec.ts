import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PORTS } from './ports';
import { DEMO_PASSWORDS } from './auth-support';
import { callsByKey, runOf, slowTasks, startApprovedRun, succeeded, startsMcpServer } from './run-support';
import { startServer, type ServerProcess } from './server-process';

// A run survives a kill -9 of its server: after a restart on the same PGlite data it
// completes, and only the task in flight at the kill runs again.

const mcp = startsMcpServer();

test('kill -9 of the server mid-run: after a restart on the same data the run completes, and no task that had succeeded runs again', async ({ request, browser }) => {
  test.setTimeout(240_000);
  // Keys beside the data, not in it (the server refuses keys stored with the database).
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'plangate-crash-'));
  const env = { PLANGATE_DATA_DIR: path.join(scratch, 'data'), PLANGATE_KEY_DIR: path.join(scratch, 'keys'), PLANGATE_DEMO_USERS: 'on' };
  let server: ServerProcess | null = await startServer(PORTS.crash, env);
  try {
    const runId = await startApprovedRun(request, browser, mcp(), server.url, 'Crash', slowTasks(20, 400, 'chain'), { username: 'approver', password: DEMO_PASSWORDS.approver });
    await expect.poll(async () => succeeded(await runOf(request, server!.url, runId)), { timeout: 60_000, intervals: [200] }).toBeGreaterThanOrEqual(4);
    await server.crash();
    const before = new Set(callsByKey(mcp()).keys());
    server = await startServer(PORTS.crash, env);
    const done = await expect
      .poll(async () => (await runOf(request, server!.url, runId)).state, { timeout: 120_000, intervals: [500] })
      .toBe('succeeded')
      .then(() => runOf(request, server!.url, runId));
    expect(succeeded(done)).toBe(20);
    // Every call of a task carried one key, run:task:generation, the re-delivery after the kill
    // too, so an executor can tell a repeat. Each attempt made at most one call (one recorded
    // just before the kill may never have reached the server); only the task in flight at the
    // kill may have two.
    const calls = callsByKey(mcp());
    for (const task of done.tasks) {
      const keys = [...calls.keys()].filter((key) => key.startsWith(`${runId}:${task.task_id}:`));
      expect(keys, task.task_id).toEqual([`${runId}:${task.task_id}:1`]);
      expect(calls.get(keys[0]), keys[0]).toBeGreaterThanOrEqual(1);
      expect(calls.get(keys[0]), keys[0]).toBeLessThanOrEqual(task.attempts);
    }
    expect(done.tasks.filter((t) => t.attempts > 1).length).toBeLessThanOrEqual(1);
    expect(before.size).toBeGreaterThanOrEqual(4);
  } finally {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
});
