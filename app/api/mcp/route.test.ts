import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@/lib/auth/roles';
import { Registry } from '@/lib/registry';
import { decide } from '@/lib/server/approval/approval-service';
import { createApiToken } from '@/lib/server/auth/api-tokens';
import type { Principal } from '@/lib/server/auth/principal';
import { createUser } from '@/lib/server/auth/users';
import type { DatabaseHandle } from '@/lib/server/platform/db/client';
import { auditEvents, plans } from '@/lib/server/platform/db/schema';
import { testDatabases } from '@/lib/server/platform/db/test-databases';
import { serveOverHttp, type HttpTestServer } from '@/lib/server/mcp/mcp-http-test-support';
import { replaceRegistry } from '@/lib/server/registry/registry-service';
import { startMcpTestServer, type McpTestServer } from '@/scripts/test-servers/mcp-server-test-support';
import { startRunWorkers, stopRunWorkers } from '@/lib/server/runs/run-workers';
import * as route from './route';

// The MCP endpoint as an agent meets it: the route handler served over real HTTP, an agent
// built with the SDK's own client and a real API token, on a real database. Refusals (no
// token, a role too low, bad input) answer clearly and leave the database as it was.

// Gated runs call a test MCP server on loopback, which dispatch refuses unless allowed.
process.env.PLANGATE_DISPATCH_ALLOW = [process.env.PLANGATE_DISPATCH_ALLOW, '127.0.0.1'].filter(Boolean).join(',');

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 2 } },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};
const gated = { planned_tasks: [{ task_id: 'g', description: 'Add once approved', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 2 }, parameters: { requires_approval: true } }] };

/**
 * The route reads the process's database (getDatabase) as it does in Next; the test's own
 * database takes that slot, and the auth instance bound to an earlier one is dropped.
 */
function becomeProcessDatabase(handle: DatabaseHandle) {
  const store = globalThis as Record<symbol, unknown>;
  store[Symbol.for('plangate.database')] = Promise.resolve(handle);
  delete store[Symbol.for('plangate.auth')];
}

type ToolAnswer = CallToolResult & { structuredContent?: Record<string, unknown> };

describe.each(testDatabases())('the MCP endpoint on $name', (database) => {
  let handle: DatabaseHandle;
  let http: HttpTestServer;
  let tools: McpTestServer;
  const tokens = new Map<string, string>();
  const people = new Map<string, Principal>();
  const clients: Client[] = [];

  async function person(username: string, role: Role, service = false) {
    const created = await createUser(handle.db, { username, role, service, password: service ? null : `${username}-password` }, 'cli');
    people.set(username, { ...created, via: 'session' });
    tokens.set(username, (await createApiToken(handle.db, { username }, username)).token);
  }

  /** An agent connected as `username`, with that user's API token. */
  async function agent(username: string): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', http.url), { requestInit: { headers: { Authorization: `Bearer ${tokens.get(username)}` } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    return (await client.callTool({ name, arguments: args })) as ToolAnswer;
  }

  const text = (answer: ToolAnswer) => answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  const counts = async () => ({
    plans: (await handle.db.select({ n: count() }).from(plans))[0].n,
    events: (await handle.db.select({ n: count() }).from(auditEvents))[0].n,
  });

  beforeAll(async () => {
    handle = await database.open();
    becomeProcessDatabase(handle);
    tools = await startMcpTestServer();
    await replaceRegistry(handle.db, Registry.parse({ tools: [{ id: 'add', description: 'Adds', endpoint: { protocol: 'mcp', url: tools.url } }] }), 'registrar');
    await startRunWorkers(handle, { resultUrl: (run, task) => `http://127.0.0.1:9/api/runs/${run}/tasks/${task}/result`, concurrency: 2 });
    for (const [name, role] of [['eddie', 'editor'], ['alice', 'approver'], ['vera', 'viewer']] as const) await person(name, role);
    await person('robot', 'admin', true);
    http = await serveOverHttp((request) => {
      const context = { params: Promise.resolve({}) };
      return request.method === 'POST' ? route.POST(request, context) : route.GET(request, context);
    });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await http?.close();
    await stopRunWorkers(handle);
    await tools?.close();
    await handle?.close();
  });

  it('asks for a token: 401 with a Bearer challenge, and invalid_token for a bad one; GET is 405', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const none = await fetch(`${http.url}/api/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="Plangate"');
    expect((await none.json()).error.code).toBe('unauthenticated');

    const forged = await fetch(`${http.url}/api/mcp`, { method: 'POST', headers: { ...headers, Authorization: 'Bearer pgt_not-a-token' }, body: JSON.stringify(initialize) });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const listen = await fetch(`${http.url}/api/mcp`, { headers: { Authorization: `Bearer ${tokens.get('eddie')}`, Accept: 'text/event-stream' } });
    expect([listen.status, listen.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
  });

  it('lists every tool with its least role', async () => {
    const { tools: listed } = await (await agent('vera')).listTools();
    expect(listed.map((tool) => tool.name).sort()).toEqual(
      ['decide_gate', 'get_approved_plan', 'list_resources', 'plan_status', 'run_status', 'start_run', 'submit_plan', 'wait_for_decision'].sort(),
    );
    expect(listed.find((tool) => tool.name === 'submit_plan')?.description).toContain('Needs the editor role');
    expect(listed.find((tool) => tool.name === 'submit_plan')?.inputSchema.properties).toHaveProperty('plan');
  });

  it('submits a plan, waits with progress while a person approves it, and hands over exactly what was approved', async () => {
    const eddie = await agent('eddie');
    const registry = await call(eddie, 'list_resources', { kind: 'tools' });
    expect((registry.structuredContent!.tools as Array<{ id: string }>).map((tool) => tool.id)).toEqual(['add']);

    const submitted = await call(eddie, 'submit_plan', { title: 'Agent plan', plan, reviewers: ['alice'] });
    expect(submitted.isError).toBeFalsy();
    const { id, revision, content_hash, status, review_url } = submitted.structuredContent as Record<string, string | number>;
    expect([status, revision, review_url]).toEqual(['in_review', 1, `${http.url}/plans/${id}/review`]);
    expect((await call(eddie, 'plan_status', { plan_id: id })).structuredContent).toMatchObject({ status: 'in_review', revision: 1, content_hash, requested_reviewers: [{ reviewer: 'alice' }] });

    const progress: string[] = [];
    const waiting = eddie.callTool({ name: 'wait_for_decision', arguments: { plan_id: id, timeout_seconds: 60 } }, undefined, {
      onprogress: (note) => void progress.push(note.message ?? ''),
      resetTimeoutOnProgress: true,
    });
    await expect.poll(() => progress.length).toBeGreaterThan(0);
    expect(progress[0]).toBe('Revision 1 is in review: 0 of 1 approvals');
    await decide(handle.db, String(id), 'approved', { revision: 1, content_hash: String(content_hash), comment: 'Right plan' }, people.get('alice')!);
    const decided = (await waiting) as ToolAnswer;
    expect(decided.structuredContent).toMatchObject({ status: 'approved', decided: true, timed_out: false, content_hash });

    const handOff = (await call(eddie, 'get_approved_plan', { plan_id: id })).structuredContent!;
    expect([handOff.revision, handOff.content_hash]).toEqual([1, content_hash]);
    expect((handOff.approvals as Array<{ reviewer: string; comment: string }>).map((a) => [a.reviewer, a.comment])).toEqual([['alice', 'Right plan']]);
  });

  it('imports a plan from text in any import format', async () => {
    const submitted = await call(await agent('eddie'), 'submit_plan', { title: 'Imported by an agent', content: JSON.stringify(plan) });
    expect(submitted.structuredContent).toMatchObject({ status: 'in_review', revision: 1, format: 'taskdata' });
  });

  it('refuses a tool above the caller\'s role, naming the role, and changes nothing', async () => {
    const before = await counts();
    const viewer = await call(await agent('vera'), 'submit_plan', { title: 'Not mine to submit', plan });
    expect(viewer.isError).toBe(true);
    expect(text(viewer)).toBe('submit_plan needs the editor role; vera has the viewer role');
    expect(viewer.structuredContent).toMatchObject({ error: { code: 'forbidden' } });
    const editor = await call(await agent('eddie'), 'decide_gate', { run_id: 'r', task_id: 'g', decision: 'approve' });
    expect(text(editor)).toBe('decide_gate needs the approver role; eddie has the editor role');
    expect(await counts()).toEqual(before);
  });

  it('refuses bad input with a clear error and changes nothing, a plan that cannot be reviewed included', async () => {
    const eddie = await agent('eddie');
    const before = await counts();

    const untitled = await call(eddie, 'submit_plan', { title: ' ', plan });
    expect([untitled.isError, text(untitled)]).toEqual([true, expect.stringContaining('title must not be empty')]);
    const both = await call(eddie, 'submit_plan', { title: 'Both', plan, content: JSON.stringify(plan) });
    expect(text(both)).toContain('either as `plan` (TaskData) or as `content`');
    const tooLong = await call(eddie, 'wait_for_decision', { plan_id: 'any', timeout_seconds: 301 });
    expect(text(tooLong)).toContain('timeout_seconds is at most 300');
    const unreadable = await call(eddie, 'submit_plan', { title: 'Garbled', content: 'not a plan in any format' });
    expect([unreadable.isError, text(unreadable)]).toEqual([true, expect.stringMatching(/^Could not import/)]);

    // Valid in shape, but its tasks route to a tool the registry does not have: creating and
    // submitting are one step, so the refused submit leaves no draft behind.
    const unknownTool = await call(eddie, 'submit_plan', { title: 'Routes nowhere', plan: { planned_tasks: [{ task_id: 'x', description: 'X', execution_type: 'tool', tool_id: 'no_such_tool' }] } });
    expect(unknownTool.isError).toBe(true);
    expect(unknownTool.structuredContent).toMatchObject({ error: { code: 'unprocessable' } });
    expect(text(unknownTool)).toContain('no_such_tool');

    const missing = await call(eddie, 'plan_status', { plan_id: 'no-such-plan' });
    expect([missing.isError, (missing.structuredContent as { error: { code: string } }).error.code]).toEqual([true, 'not_found']);
    expect(await counts()).toEqual(before);
  });

  it('starts a run of the approved revision, follows it, and lets an approver decide its gate but not a service account', async () => {
    const eddie = await agent('eddie');
    const submitted = (await call(eddie, 'submit_plan', { title: 'Gated run', plan: gated })).structuredContent as { id: string; content_hash: string };
    await decide(handle.db, submitted.id, 'approved', { revision: 1, content_hash: submitted.content_hash, comment: '' }, people.get('alice')!);

    const wrongHash = await call(eddie, 'start_run', { plan_id: submitted.id, revision: 1, content_hash: `sha256:${'0'.repeat(64)}` });
    expect(wrongHash.structuredContent).toMatchObject({ error: { code: 'stale' } });
    const started = (await call(eddie, 'start_run', { plan_id: submitted.id, revision: 1, content_hash: submitted.content_hash })).structuredContent as { run_id: string; run_url: string };
    expect(started.run_url).toBe(`${http.url}/runs/${started.run_id}`);

    const gateState = async () => ((await call(eddie, 'run_status', { run_id: started.run_id })).structuredContent!.tasks as Array<{ state: string }>)[0].state;
    await expect.poll(gateState, { timeout: 30_000 }).toBe('awaiting_approval');

    const robot = await call(await agent('robot'), 'decide_gate', { run_id: started.run_id, task_id: 'g', decision: 'approve' });
    expect(text(robot)).toBe('robot is a service account; a person with the approver role must decide a gate');
    expect(await gateState()).toBe('awaiting_approval');

    const alice = await call(await agent('alice'), 'decide_gate', { run_id: started.run_id, task_id: 'g', decision: 'approve', comment: 'Add 2 and 3', input: { a: 2, b: 3 } });
    expect(alice.isError).toBeFalsy();
    await expect.poll(gateState, { timeout: 30_000 }).toBe('succeeded');
    const run = (await call(eddie, 'run_status', { run_id: started.run_id })).structuredContent as { state: string; tasks: Array<{ gate: { decided_by: string; edited: boolean } }> };
    expect(run.state).toBe('succeeded');
    expect(run.tasks[0].gate).toMatchObject({ decided_by: 'alice', edited: true });
    expect(tools.calls.at(-1)?.arguments).toEqual({ a: 2, b: 3 });
  }, 90_000);

  it('records who the agent acted for in the audit trail', async () => {
    const [created] = await handle.db.select().from(auditEvents).where(eq(auditEvents.kind, 'submitted')).limit(1);
    expect(created.actor).toBe('eddie');
  });
});
