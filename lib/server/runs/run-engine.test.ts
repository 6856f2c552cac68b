import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskDataInput } from '@/lib/plan';
import type { RegistryInput } from '@/lib/registry';
import type { DatabaseHandle } from '../platform/db/client';
import { testDatabases } from '../platform/db/test-databases';
import { refusal } from '../platform/test-support';
import { startA2aTestAgent, type A2aTestAgent } from '@/scripts/test-servers/a2a-agent-test-support';
import { startMcpTestServer, type McpTestServer } from '@/scripts/test-servers/mcp-server-test-support';
import { startOpenAiTestServer, type OpenAiTestServer } from '@/scripts/test-servers/openai-server-test-support';
import { startWebhookReceiver, type WebhookReceiver } from '@/scripts/test-servers/webhook-receiver-test-support';
import { cancelRun, decideGate, pauseRun, resumeRun, retryTask } from './run-control';
import { getRun, runEventsAfter } from './run-queries';
import type { RunState } from '@/lib/runs/run-states';
import { approvedPlan, approvedRevision, gateApprover, runApprover, runEditor } from './run-test-support';
import { startRunWorkers, stopRunWorkers } from './run-workers';
import { startRun } from './start-run';
import { allowTestExecutors } from './test-executors-test-support';
import { acceptSignedResult } from './task-result';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SignedDecision } from '@/lib/api/passkey-schemas';
import { canonicalJson, sha256Of } from '../audit/digests';
import { passkeys } from '../platform/db/schema';
import { publishedKeys } from '../passkeys/passkey-service';
import { softAuthenticator } from '../passkeys/soft-authenticator-test-support';

/** scripts/verify-approvals.mjs (node:crypto only) on a run's gate decisions, as an outsider runs it. */
function verifyRun(run: unknown, keys: unknown) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plangate-verify-run-'));
  writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(keys));
  const result = spawnSync(process.execPath, ['scripts/verify-approvals.mjs', '-', path.join(dir, 'keys.json')], { cwd: path.resolve(__dirname, '../../..'), input: JSON.stringify(run), encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

// A run end to end against real servers speaking each protocol: an MCP tool, an A2A agent,
// an OpenAI-compatible model and a signed webhook, with a fan-out, a fan-in and templates
// carrying outputs downstream; gates, failures, retries and continuation after a replan.

// An endpoint may name only variables the operator lists (never PLANGATE_*), and reach
// 127.0.0.1, where the test servers listen, only when the operator allows it.
const SECRET_ENV = 'RUN_ENGINE_HOOK_SECRET';
const SECRET = allowTestExecutors(SECRET_ENV);

let mcp: McpTestServer;
let agent: A2aTestAgent;
let llm: OpenAiTestServer;
let hook: WebhookReceiver;

beforeAll(async () => {
  [mcp, agent, llm, hook] = await Promise.all([startMcpTestServer(), startA2aTestAgent(), startOpenAiTestServer(), startWebhookReceiver(SECRET)]);
});
afterAll(async () => {
  await Promise.all([mcp?.close(), agent?.close(), llm?.close(), hook?.close()]);
});

const registry = (): RegistryInput => ({
  tools: [
    { id: 'add', description: 'Adds', input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, endpoint: { protocol: 'mcp', url: mcp.url } },
    { id: 'fail', description: 'Fails', endpoint: { protocol: 'mcp', url: mcp.url } },
    { id: 'slow', description: 'Sleeps', endpoint: { protocol: 'mcp', url: mcp.url } },
  ],
  agents: [{ id: 'researcher', description: 'Researches', endpoint: { protocol: 'a2a', url: agent.url } }],
  llms: [{ name: 'writer', description: 'Writes', endpoint: { protocol: 'openai', url: llm.url, model: 'test-model' } }],
  dsl_workflows: [{ id: 'publish', description: 'Publishes', endpoint: { protocol: 'webhook', url: hook.url, secret_env: SECRET_ENV } }],
});

// a (tool) fans out to b (agent) and c (llm); d (dsl) joins them. Templates carry outputs.
const fourTypes: TaskDataInput = {
  task_id: 'job-run',
  planned_tasks: [
    { task_id: 'a', description: 'Add', execution_type: 'tool', tool_id: 'add', arguments: { a: 2, b: 3 } },
    { task_id: 'b', description: 'Research', execution_type: 'agent', agent_id: 'researcher', instructions: 'Research the sum', arguments: { sum: '${step[0].sum}' }, dependencies: ['a'] },
    { task_id: 'c', description: 'Write', execution_type: 'llm', function_id: 'writer', instructions: 'Write about the sum', arguments: { text: 'The sum is ${step[0].sum}' }, dependencies: ['a'] },
    { task_id: 'd', description: 'Publish', execution_type: 'dsl', function_id: 'publish', arguments: { research: '${step[1]}', total: '${step[0].sum}' }, dependencies: ['b', 'c'] },
  ],
};

/** Waits until the run reaches `state` (failing the test with the run's tasks if it does not). */
async function runReaches(handle: DatabaseHandle, runId: string, state: RunState, timeout = 30_000) {
  await expect
    .poll(async () => {
      const run = await getRun(handle.db, runId);
      return run.state === state ? state : `${run.state}: ${run.tasks.map((t) => `${t.task_id}=${t.state}${t.error ? ` (${t.error})` : ''}`).join(', ')}`;
    }, { timeout, interval: 200 })
    .toBe(state);
  return getRun(handle.db, runId);
}

describe.each(testDatabases())('running approved plans on $name', (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
    await startRunWorkers(handle, { resultUrl: (run, task) => `http://127.0.0.1:9/api/runs/${run}/tasks/${task}/result`, concurrency: 4 });
  }, 60_000);
  afterAll(async () => {
    await stopRunWorkers(handle);
    await handle.close();
  });

  it('runs a tool, an agent, a model and a workflow, each through its protocol, with outputs flowing downstream', async () => {
    const plan = await approvedPlan(handle, 'Four types', fourTypes, registry());
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    const run = await runReaches(handle, run_id, 'succeeded');
    const tasks = new Map(run.tasks.map((t) => [t.task_id, t]));
    expect(tasks.get('a')!.output).toEqual({ sum: 5 });
    expect(tasks.get('b')!.input).toEqual({ sum: 5 });
    expect(tasks.get('c')!.input).toEqual({ text: 'The sum is 5' });
    expect(tasks.get('d')!.input).toMatchObject({ total: 5, research: tasks.get('b')!.output });
    // Each call carried its idempotency key, and each protocol was called once.
    expect(mcp.callCount('add', `${run_id}:a:1`)).toBe(1);
    expect(agent.countFor(`${run_id}:b:1`)).toBe(1);
    expect(hook.countFor(`${run_id}:d:1`)).toBe(1);
    expect(run.content_hash).toBe(plan.content_hash);
    const kinds = (await runEventsAfter(handle.db, run_id, 0)).map((e) => e.kind);
    expect(kinds[0]).toBe('run_started');
    expect(kinds.filter((k) => k === 'task_succeeded')).toHaveLength(4);
  }, 60_000);

  it("routes seed 000's l2_task by parameters.sub_type and fills the run's TaskData, leaving the approved revision as it was", async () => {
    const seed: TaskDataInput = {
      task_id: 'job-seed',
      planned_tasks: [
        { task_id: 'sum', description: 'Add', execution_type: 'l2_task', tool_id: 'add', parameters: { sub_type: 'tools' }, arguments: { a: 20, b: 22 } },
        { task_id: 'say', description: 'Say', execution_type: 'l2_task', function_id: 'writer', parameters: { sub_type: 'llm' }, arguments: { n: '${step[0].sum}' }, dependencies: ['sum'] },
      ],
    };
    const plan = await approvedPlan(handle, 'Seed 000', seed, registry());
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    const run = await runReaches(handle, run_id, 'succeeded');
    expect(run.task_data.completed_tasks).toEqual(['sum', 'say']);
    expect(run.task_data.output_data.sum).toEqual({ sum: 42 });
    expect(mcp.callCount('add', `${run_id}:sum:1`)).toBe(1);
    expect(run.tasks.find((t) => t.task_id === 'say')!.input).toEqual({ n: 42 });
  });

  it('refuses to run a revision that is not the approved one, and starts nothing', async () => {
    const plan = await approvedPlan(handle, 'Stale hash', fourTypes, registry());
    const wrong = await refusal(startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: `sha256:${'0'.repeat(64)}` }));
    expect(wrong.status).toBe(409);
    expect(wrong.code).toBe('stale');
  });

  it('waits at a gate until a second person approves; a rejection fails the task and asks for a replan', async () => {
    const gated: TaskDataInput = {
      task_id: 'job-gate',
      planned_tasks: [
        { task_id: 'a', description: 'Add', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 1 } },
        { task_id: 'g', description: 'Write', execution_type: 'llm', function_id: 'writer', arguments: { n: '${step[0].sum}' }, parameters: { requires_approval: true }, dependencies: ['a'] },
      ],
    };
    const plan = await approvedPlan(handle, 'Gated', gated, registry());
    const first = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    const waiting = await runReaches(handle, first.run_id, 'awaiting_approval');
    expect(waiting.tasks.find((t) => t.task_id === 'g')).toMatchObject({ state: 'awaiting_approval', input: { n: 2 } });
    // Four-eyes: who started the run does not decide its gates.
    expect((await refusal(decideGate(handle, runEditor, first.run_id, 'g', 'approve'))).status).toBe(403);
    await decideGate(handle, gateApprover, first.run_id, 'g', 'approve');
    const done = await runReaches(handle, first.run_id, 'succeeded');
    expect(done.tasks.find((t) => t.task_id === 'g')!.gate_decided_by).toBe(gateApprover.username);

    const second = await startRun(handle, runApprover, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    await runReaches(handle, second.run_id, 'awaiting_approval');
    await decideGate(handle, gateApprover, second.run_id, 'g', 'reject', 'not today');
    const rejected = await runReaches(handle, second.run_id, 'needs_replan');
    expect(rejected.tasks.find((t) => t.task_id === 'g')!.error).toContain('Rejected at its gate by bob: not today');
  }, 60_000);

  it('an approver may edit the input at the gate: the task is sent theirs, recorded with its hash; a plan may forbid editing', async () => {
    const gated = (allowEdit: boolean): TaskDataInput => ({
      task_id: 'job-gate-edit',
      planned_tasks: [
        { task_id: 'a', description: 'Add', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 1 } },
        {
          task_id: 'g',
          description: 'Add again',
          execution_type: 'tool',
          tool_id: 'add',
          arguments: { a: '${step[0].sum}', b: 1 },
          parameters: { requires_approval: true, ...(allowEdit ? {} : { gate_allows_edit: false }) },
          dependencies: ['a'],
        },
      ],
    });
    const plan = await approvedPlan(handle, 'Gate edit', gated(true), registry());
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    await runReaches(handle, run_id, 'awaiting_approval');
    // A reject carries no input; nothing changes.
    expect((await refusal(decideGate(handle, gateApprover, run_id, 'g', 'reject', '', { input: { a: 0, b: 0 } }))).status).toBe(400);
    await decideGate(handle, gateApprover, run_id, 'g', 'approve', 'ten, not two', { input: { a: 10, b: 5 } });
    const done = await runReaches(handle, run_id, 'succeeded');
    const g = done.tasks.find((t) => t.task_id === 'g')!;
    expect(g.output).toEqual({ sum: 15 });
    expect(g.input).toEqual({ a: 10, b: 5 });
    expect(g.gate).toMatchObject({ decision: 'approve', decided_by: gateApprover.username, edited: true, comment: 'ten, not two' });
    expect(g.gate!.input_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const approvedEvent = (await runEventsAfter(handle.db, run_id, 0)).find((e) => e.kind === 'gate_approved')!;
    expect(approvedEvent.detail).toMatchObject({ edited: true, input_hash: g.gate!.input_hash });

    const locked = await approvedPlan(handle, 'Gate no edit', gated(false), registry());
    const second = await startRun(handle, runEditor, locked.id, { revision: locked.revision, content_hash: locked.content_hash });
    await runReaches(handle, second.run_id, 'awaiting_approval');
    const forbidden = await refusal(decideGate(handle, gateApprover, second.run_id, 'g', 'approve', '', { input: { a: 10, b: 5 } }));
    expect(forbidden.status).toBe(409);
    expect(forbidden.message).toContain('gate_allows_edit');
    expect((await getRun(handle.db, second.run_id)).tasks.find((t) => t.task_id === 'g')!.state).toBe('awaiting_approval');
    // Approved as shown: not edited, still hashed.
    await decideGate(handle, gateApprover, second.run_id, 'g', 'approve');
    const plain = (await runReaches(handle, second.run_id, 'succeeded')).tasks.find((t) => t.task_id === 'g')!;
    expect(plain.output).toEqual({ sum: 3 });
    expect(plain.gate).toMatchObject({ edited: false });
  }, 60_000);

  it('a gate decision signed with a passkey is kept with the run, and an outside verifier accepts it but not a tampered copy', async () => {
    const gated: TaskDataInput = {
      task_id: 'job-gate-signed',
      planned_tasks: [
        { task_id: 'a', description: 'Add', execution_type: 'tool', tool_id: 'add', arguments: { a: 2, b: 2 } },
        { task_id: 'g', description: 'Add again', execution_type: 'tool', tool_id: 'add', arguments: { a: '${step[0].sum}', b: 1 }, parameters: { requires_approval: true }, dependencies: ['a'] },
      ],
    };
    const key = softAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' });
    await handle.db.insert(passkeys).values(key.row(gateApprover.username));
    const plan = await approvedPlan(handle, 'Signed gate', gated, registry());
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    const waiting = await runReaches(handle, run_id, 'awaiting_approval');
    const signed: SignedDecision = {
      plan_id: plan.id,
      revision: waiting.revision,
      content_hash: waiting.content_hash,
      resources_hash: waiting.resources_hash,
      decision: 'approve',
      gate: { run_id, task_id: 'g', input_hash: sha256Of(canonicalJson(waiting.tasks.find((t) => t.task_id === 'g')!.input)) },
      at: new Date().toISOString(),
    };
    const relyingParty = { host: 'localhost:3000', rpId: 'localhost', trusted: [] };
    // Signed over another input than the one shown: refused, and nothing is decided.
    const otherInput = { ...signed, gate: { ...signed.gate!, input_hash: sha256Of(canonicalJson({ a: 99, b: 1 })) } };
    expect((await refusal(decideGate(handle, gateApprover, run_id, 'g', 'approve', '', undefined, { signature: key.sign(otherInput), relyingParty }))).status).toBeGreaterThanOrEqual(400);
    expect((await getRun(handle.db, run_id)).tasks.find((t) => t.task_id === 'g')!.state).toBe('awaiting_approval');

    await decideGate(handle, gateApprover, run_id, 'g', 'approve', '', undefined, { signature: key.sign(signed), relyingParty });
    const done = await runReaches(handle, run_id, 'succeeded');
    expect(done.tasks.find((t) => t.task_id === 'g')!.gate!.signature).toMatchObject({ kid: key.kid, signed });
    const keys = { keys: await publishedKeys(handle.db) };
    const verify = (document: unknown) => verifyRun(document, keys);
    expect(verify(done)).toMatchObject({ status: 0 });
    const tampered = { ...done, tasks: done.tasks.map((t) => (t.task_id === 'g' ? { ...t, gate: { ...t.gate!, input_hash: sha256Of(canonicalJson({ a: 99, b: 1 })) } } : t)) };
    expect(verify(tampered).status).toBe(1);
  }, 60_000);

  it('a failing tool is retried, then the run needs a replan; a continuation runs only what did not succeed', async () => {
    const failing: TaskDataInput = {
      task_id: 'job-fail',
      planned_tasks: [
        { task_id: 'a', description: 'Add', execution_type: 'tool', tool_id: 'add', arguments: { a: 4, b: 4 } },
        { task_id: 'f', description: 'Flaky', execution_type: 'dsl', function_id: 'publish', arguments: { n: '${step[0].sum}' }, parameters: { retries: 1 }, dependencies: ['a'] },
        { task_id: 'after', description: 'After', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 2 }, dependencies: ['f'] },
      ],
    };
    hook.behaviour.failFirst = 2;
    const plan = await approvedPlan(handle, 'Failing', failing, registry());
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    const stopped = await runReaches(handle, run_id, 'needs_replan', 60_000);
    const byId = new Map(stopped.tasks.map((t) => [t.task_id, t]));
    expect(byId.get('f')).toMatchObject({ state: 'failed', attempts: 2 });
    await expect.poll(async () => (await getRun(handle.db, run_id)).tasks.find((t) => t.task_id === 'after')!.state, { timeout: 10_000 }).toBe('blocked');
    const addCalls = mcp.callCount('add');

    // A replan changes the failed task; the new revision is approved and continues the run:
    // the task that succeeded, unchanged, keeps its output; only f and after run again.
    const replanned = await approvedRevision(handle, plan.id, (task) => (task.task_id === 'f' ? { ...task, arguments: { ...task.arguments, note: 'replanned' }, parameters: { retries: 2 } } : task));
    const other = await approvedPlan(handle, 'Another plan', failing, registry());
    const refused = await refusal(startRun(handle, runEditor, other.id, { revision: other.revision, content_hash: other.content_hash, continue_from: run_id }));
    expect(refused.status).toBe(404);
    const continued = await startRun(handle, runEditor, plan.id, { revision: replanned.revision, content_hash: replanned.content_hash, continue_from: run_id });
    const finished = await runReaches(handle, continued.run_id, 'succeeded');
    expect(finished.revision).toBe(replanned.revision);
    expect(finished.tasks.find((t) => t.task_id === 'a')).toMatchObject({ carried_from: run_id, output: { sum: 8 } });
    expect(finished.tasks.find((t) => t.task_id === 'f')).toMatchObject({ carried_from: null, input: { n: 8, note: 'replanned' } });
    expect(mcp.callCount('add')).toBe(addCalls + 1);
  }, 90_000);

  it('an executor that answered 202 settles its task later, signed with the webhook secret; an unsigned or tampered report is refused', async () => {
    hook.behaviour.mode = 'accept';
    try {
      const plan = await approvedPlan(
        handle,
        'Accepted',
        { task_id: 'job-accept', planned_tasks: [{ task_id: 'w', description: 'Publish', execution_type: 'dsl', function_id: 'publish', arguments: { x: 1 } }] },
        registry(),
      );
      const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
      await expect.poll(async () => (await runEventsAfter(handle.db, run_id, 0)).some((e) => e.kind === 'task_accepted'), { timeout: 10_000 }).toBe(true);
      const body = JSON.stringify({ state: 'succeeded', output: { published: true } });
      const resultUrl = `http://127.0.0.1:9/api/runs/${run_id}/tasks/w/result`;
      const post = (headers: Record<string, string>, sent = body) => new Request(resultUrl, { method: 'POST', headers, body: sent });
      const signed = hook.resultHeaders(resultUrl, '1.1', body);
      expect((await refusal(acceptSignedResult(handle, run_id, 'w', post({ 'content-type': 'application/json' })))).status).toBe(401);
      expect((await refusal(acceptSignedResult(handle, run_id, 'w', post(signed, body.replace('true', 'false'))))).status).toBe(401);
      const other = await startWebhookReceiver('another-secret');
      expect((await refusal(acceptSignedResult(handle, run_id, 'w', post(other.resultHeaders(resultUrl, '1.1', body))))).status).toBe(401);
      await other.close();
      await acceptSignedResult(handle, run_id, 'w', post(signed));
      const run = await runReaches(handle, run_id, 'succeeded');
      expect(run.tasks[0].output).toEqual({ published: true });
    } finally {
      hook.behaviour.mode = 'respond';
    }
  });

  it('a paused run starts nothing new until it is resumed, and then finishes', async () => {
    const chain: TaskDataInput = {
      task_id: 'job-pause',
      planned_tasks: ['s1', 's2', 's3'].map((id, i) => ({ task_id: id, description: id, execution_type: 'tool', tool_id: 'slow', arguments: { ms: 1_500 }, dependencies: i ? [`s${i}`] : [] })),
    };
    const plan = await approvedPlan(handle, 'Pause', chain, registry());
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    await expect.poll(async () => (await getRun(handle.db, run_id)).tasks.find((t) => t.task_id === 's1')!.state, { timeout: 10_000 }).toBe('running');
    expect(await pauseRun(handle, runEditor, run_id)).toBe('paused');
    // The call under way finishes; the next task waits.
    await expect.poll(async () => (await getRun(handle.db, run_id)).tasks.find((t) => t.task_id === 's1')!.state, { timeout: 10_000 }).toBe('succeeded');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const paused = await getRun(handle.db, run_id);
    expect(paused.state).toBe('paused');
    expect(paused.tasks.find((t) => t.task_id === 's2')!.state).toBe('pending');
    expect((await refusal(pauseRun(handle, runEditor, run_id))).status).toBe(409);
    await resumeRun(handle, runEditor, run_id);
    await runReaches(handle, run_id, 'succeeded');
  }, 60_000);

  it('retrying a failed task runs it and the tasks it blocked; cancelling stops the rest', async () => {
    const plan = await approvedPlan(
      handle,
      'Retry',
      {
        task_id: 'job-retry',
        planned_tasks: [
          { task_id: 'f', description: 'Publish', execution_type: 'dsl', function_id: 'publish', arguments: {}, parameters: { retries: 0 } },
          { task_id: 'g', description: 'After', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 1 }, dependencies: ['f'] },
        ],
      },
      registry(),
    );
    hook.behaviour.failFirst = 1;
    const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    await runReaches(handle, run_id, 'needs_replan');
    await expect.poll(async () => (await getRun(handle.db, run_id)).tasks.find((t) => t.task_id === 'g')!.state, { timeout: 10_000 }).toBe('blocked');
    await retryTask(handle, runEditor, run_id, 'f');
    await runReaches(handle, run_id, 'succeeded');

    const slow = await approvedPlan(
      handle,
      'Cancel',
      { task_id: 'job-cancel', planned_tasks: [{ task_id: 's', description: 'Slow', execution_type: 'dsl', function_id: 'publish', arguments: {} }] },
      registry(),
    );
    hook.behaviour.delayMs = 5_000;
    const started = await startRun(handle, runEditor, slow.id, { revision: slow.revision, content_hash: slow.content_hash });
    await expect.poll(async () => (await getRun(handle.db, started.run_id)).tasks[0].state, { timeout: 10_000 }).toBe('running');
    await cancelRun(handle, runApprover, started.run_id);
    const cancelled = await runReaches(handle, started.run_id, 'cancelled');
    await expect.poll(async () => (await getRun(handle.db, started.run_id)).tasks[0].state, { timeout: 10_000 }).toBe('cancelled');
    expect(cancelled.state).toBe('cancelled');
    hook.behaviour.delayMs = 0;
  }, 90_000);
});
