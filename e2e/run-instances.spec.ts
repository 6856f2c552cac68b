import { expect, test } from '@playwright/test';
import { PORTS } from './ports';
import { callsByKey, runOf, slowTasks, startApprovedRun, succeeded, startsMcpServer } from './run-support';
import { scratchDatabase, startServer, type ServerProcess } from './server-process';

// Several instances share one PostgreSQL database and its job queue: they share a run's
// tasks, and when one dies mid-run the other takes over its jobs and finishes the run.

const mcp = startsMcpServer();

test('two instances share a 200-task run on PostgreSQL; when one dies mid-run the other finishes it', async ({ request, browser }) => {
  // This project is configured only when TEST_DATABASE_URL is set.
  const adminUrl = process.env.TEST_DATABASE_URL;
  test.setTimeout(240_000);
  const database = scratchDatabase(adminUrl!);
  const shared = { DATABASE_URL: database.url, PLANGATE_AUDIT_KEY: 'run-durability-audit-key-0123456789abcdef', PLANGATE_AUTH_SECRET: 'run-durability-auth-secret-0123456789abcdef' };
  const servers: ServerProcess[] = [];
  try {
    servers.push(await startServer(PORTS.instanceA, shared), await startServer(PORTS.instanceB, shared));
    const [a, b] = servers;
    const approver = { username: `approver-${Date.now().toString(36)}`, password: 'durability-approver-pass' };
    expect((await request.post(`${a.url}/api/users`, { data: { ...approver, role: 'approver' } })).status()).toBe(201);
    // The admin token made the approver, so a person other than the admin token writes the plan (four-eyes).
    const author = { username: `author-${Date.now().toString(36)}`, password: 'durability-author-pass' };
    expect((await request.post(`${a.url}/api/users`, { data: { ...author, role: 'editor' } })).status()).toBe(201);
    const runId = await startApprovedRun(request, browser, mcp(), a.url, 'Shared run', slowTasks(200, 300, 'fan'), approver, author);
    await expect.poll(async () => succeeded(await runOf(request, b.url, runId)), { timeout: 60_000, intervals: [200] }).toBeGreaterThanOrEqual(30);
    await a.crash();
    const progress = succeeded(await runOf(request, b.url, runId));
    expect(progress).toBeLessThan(200);
    await expect.poll(async () => (await runOf(request, b.url, runId)).state, { timeout: 150_000, intervals: [500] }).toBe('succeeded');
    const done = await runOf(request, b.url, runId);
    expect(succeeded(done)).toBe(200);
    const calls = callsByKey(mcp());
    // Every call of a task carried its one key (run:task:generation), a re-delivery after the
    // instance died too. No attempt was sent twice: an attempt the dying instance recorded may
    // never have reached the server, so a task has at most as many calls as attempts, and at least one.
    for (const task of done.tasks) {
      const keys = [...calls.keys()].filter((key) => key.startsWith(`${runId}:${task.task_id}:`));
      expect(keys, task.task_id).toEqual([`${runId}:${task.task_id}:1`]);
      expect(calls.get(keys[0]), task.task_id).toBeGreaterThanOrEqual(1);
      expect(calls.get(keys[0]), task.task_id).toBeLessThanOrEqual(task.attempts);
    }
  } finally {
    for (const server of servers) await server.stop();
    database.drop();
  }
});
