import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { startMcpTestServer, type McpTestServer } from '../scripts/test-servers/mcp-server-test-support';
import { signIn } from './auth-support';

// Support for the specs in which runs outlive their servers: every task is an MCP call to a
// real server that counts calls by idempotency key (run:task:attempt), so a task run twice
// would show.

/** The MCP server the tasks call, started once per spec file. */
export function startsMcpServer(): () => McpTestServer {
  let mcp: McpTestServer | undefined;
  test.beforeAll(async () => {
    mcp = await startMcpTestServer();
  });
  test.afterAll(async () => {
    await mcp?.close();
  });
  return () => mcp!;
}

const registry = (mcp: McpTestServer) => ({ tools: [{ id: 'slow', description: 'Sleeps, then answers', endpoint: { protocol: 'mcp', url: mcp.url } }] });

export function slowTasks(count: number, ms: number, shape: 'chain' | 'fan') {
  return {
    planned_tasks: Array.from({ length: count }, (_, i) => ({
      task_id: `t${i}`,
      description: `Slow ${i}`,
      execution_type: 'tool',
      tool_id: 'slow',
      arguments: { ms },
      dependencies: i === 0 ? [] : shape === 'chain' ? [`t${i - 1}`] : ['t0'],
    })),
  };
}

type Person = { username: string; password: string };

/** Signs `person` in, in a browser context of their own, for what `act` does as them. */
async function asPerson<T>(browser: Browser, base: string, person: Person, act: (request: APIRequestContext) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ baseURL: base, storageState: { cookies: [], origins: [] }, extraHTTPHeaders: {} });
  try {
    const page = await context.newPage();
    await signIn(page, person.username, person.password);
    return await act(page.request);
  } finally {
    await context.close();
  }
}

/**
 * Creates the plan (as `author` if given, else as the admin token's account), has a person
 * approve it, and starts a run as the admin token's account. An approver the admin token
 * created must be given an `author`: four-eyes refuses an account on its creator's plans.
 */
export async function startApprovedRun(request: APIRequestContext, browser: Browser, mcp: McpTestServer, base: string, title: string, plan: object, approver: Person, author?: Person) {
  expect((await request.put(`${base}/api/registry`, { data: registry(mcp) })).status()).toBe(200);
  const write = async (as: APIRequestContext) => {
    const made = await (await as.post(`${base}/api/plans`, { data: { title, plan } })).json();
    expect((await as.post(`${base}/api/plans/${made.id}/submit`, { data: {} })).status()).toBe(200);
    return made as { id: string; revision: number; content_hash: string };
  };
  const created = author ? await asPerson(browser, base, author, write) : await write(request);
  await asPerson(browser, base, approver, async (as) => {
    const decided = await as.post(`${base}/api/plans/${created.id}/approve`, { data: { revision: created.revision, content_hash: created.content_hash } });
    expect(decided.status()).toBe(200);
  });
  const started = await request.post(`${base}/api/plans/${created.id}/runs`, { data: { revision: created.revision, content_hash: created.content_hash } });
  expect(started.status()).toBe(201);
  return (await started.json()).run_id as string;
}

export async function runOf(request: APIRequestContext, base: string, runId: string) {
  return (await request.get(`${base}/api/runs/${runId}`)).json() as Promise<{ state: string; tasks: { task_id: string; state: string; attempts: number }[] }>;
}

export const succeeded = (run: { tasks: { state: string }[] }) => run.tasks.filter((t) => t.state === 'succeeded').length;

/** How often each idempotency key reached the MCP server. */
export function callsByKey(mcp: McpTestServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of mcp.calls) if (call.idempotencyKey) counts.set(call.idempotencyKey, (counts.get(call.idempotencyKey) ?? 0) + 1);
  return counts;
}

