import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TaskDataInput } from '@/lib/plan';
import type { DatabaseHandle } from '../platform/db/client';
import { testDatabases } from '../platform/db/test-databases';
import { refusal } from '../platform/test-support';
import { startWebhookReceiver, type WebhookReceiver } from '@/scripts/test-servers/webhook-receiver-test-support';
import { cancelRun, retryTask } from './run-control';
import { getRun, runEventsAfter } from './run-queries';
import { approvedPlan, runApprover, runEditor } from './run-test-support';
import { startRunWorkers, stopRunWorkers } from './run-workers';
import { startRun } from './start-run';
import { allowTestExecutors } from './test-executors-test-support';
import { acceptSignedResult, MAX_RESULT_BODY_BYTES } from './task-result';

// The result route's service against a real run: a webhook executor (a real HTTP server on
// 127.0.0.1) answers 202, and results are then posted as an executor would, signed with its
// own HMAC code over method, result path, attempt, timestamp and body. Each refusal must
// leave the task as it was.

const SECRET_ENV = 'RESULT_TEST_HOOK_SECRET';
const SECRET = allowTestExecutors(SECRET_ENV);

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver(SECRET, { mode: 'accept' });
});
afterAll(() => hook?.close());

const registry = () => ({ dsl_workflows: [{ id: 'publish', description: 'Publishes', endpoint: { protocol: 'webhook' as const, url: hook.url, secret_env: SECRET_ENV } }] });
// y waits for x, so a result for x can be tried on y while y is in flight.
const plan: TaskDataInput = {
  task_id: 'job-results',
  planned_tasks: [
    { task_id: 'x', description: 'First', execution_type: 'dsl', function_id: 'publish', arguments: { n: 1 } },
    { task_id: 'y', description: 'Second', execution_type: 'dsl', function_id: 'publish', arguments: { n: 2 }, dependencies: ['x'] },
  ],
};

/** The result URL Plangate sends (what the workers below are given: the default origin's path). */
const resultUrl = (runId: string, taskId: string) => `http://127.0.0.1:9/api/runs/${encodeURIComponent(runId)}/tasks/${encodeURIComponent(taskId)}/result`;

/** A POST to the result URL, as the route receives it. */
function post(url: string, headers: Record<string, string>, body: string): Request {
  return new Request(url, { method: 'POST', headers, body });
}

/** The signed headers and body an executor sends for `taskId` of `runId`, for `attempt` ("<generation>.<attempt>", "1.1" unless said). */
function signedResult(runId: string, taskId: string, result: unknown, attempt = '1.1') {
  const body = JSON.stringify(result);
  return { body, headers: hook.resultHeaders(resultUrl(runId, taskId), attempt, body) };
}

describe.each(testDatabases())('signed task results on $name', (database) => {
  let handle: DatabaseHandle;
  const started: string[] = [];

  beforeAll(async () => {
    handle = await database.open();
    await startRunWorkers(handle, { resultUrl, concurrency: 4 });
  }, 60_000);
  // An accepted task holds a worker slot until its result comes: end each test's runs.
  afterEach(async () => {
    for (const runId of started.splice(0)) await cancelRun(handle, runApprover, runId).catch(() => undefined);
  });
  afterAll(async () => {
    await stopRunWorkers(handle);
    await handle.close();
  });

  /** Starts a run of `plan` and waits until `taskId` was accepted by the executor. */
  async function runAccepted(title: string, taskId = 'x'): Promise<string> {
    const approved = await approvedPlan(handle, title, plan, registry());
    const { run_id } = await startRun(handle, runEditor, approved.id, { revision: approved.revision, content_hash: approved.content_hash });
    started.push(run_id);
    await waitAccepted(run_id, taskId);
    return run_id;
  }

  async function waitAccepted(runId: string, taskId: string) {
    await expect
      .poll(async () => (await runEventsAfter(handle.db, runId, 0)).some((e) => e.kind === 'task_accepted' && e.task_id === taskId), { timeout: 20_000, interval: 100 })
      .toBe(true);
  }

  const taskOf = async (runId: string, taskId: string) => (await getRun(handle.db, runId)).tasks.find((t) => t.task_id === taskId)!;

  it('binds a result to its run and task: the same signed bytes settle neither another run nor another task', async () => {
    const a = await runAccepted('Results A');
    const b = await runAccepted('Results B');
    const { body, headers } = signedResult(a, 'x', { state: 'succeeded', output: { from: 'a/x' } });

    // Replayed to the same task of another run, then to another task of the same run: refused.
    expect((await refusal(acceptSignedResult(handle, b, 'x', post(resultUrl(b, 'x'), headers, body)))).status).toBe(401);
    expect(await taskOf(b, 'x')).toMatchObject({ state: 'running', output: null });

    expect(await acceptSignedResult(handle, a, 'x', post(resultUrl(a, 'x'), headers, body))).toBe('running');
    expect(await taskOf(a, 'x')).toMatchObject({ state: 'succeeded', output: { from: 'a/x' } });
    await waitAccepted(a, 'y');
    const onY = await refusal(acceptSignedResult(handle, a, 'y', post(resultUrl(a, 'y'), headers, body)));
    expect([onY.status, onY.message]).toEqual([401, expect.stringContaining('does not match this run, task, attempt and body')]);
    expect(await taskOf(a, 'y')).toMatchObject({ state: 'running', output: null });
  }, 60_000);

  it('takes a result once, and only for the attempt in flight', async () => {
    const runId = await runAccepted('Results once');
    const deliveredAttempt = hook.deliveries.findLast((d) => d.body?.run_id === runId && d.body?.task_id === 'x')!.attempt!;
    expect(deliveredAttempt).toBe(`1.${(await taskOf(runId, 'x')).attempts}`);

    const later = signedResult(runId, 'x', { state: 'succeeded', output: 'for another attempt' }, '1.2');
    const wrongAttempt = await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), later.headers, later.body)));
    expect([wrongAttempt.status, wrongAttempt.message]).toEqual([409, expect.stringContaining(`but attempt ${deliveredAttempt} is in flight`)]);
    expect(await taskOf(runId, 'x')).toMatchObject({ state: 'running', output: null });

    const first = signedResult(runId, 'x', { state: 'succeeded', output: 'first' }, deliveredAttempt);
    await acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), first.headers, first.body));
    // The same report again (a retrying executor, or a replay), and a different second one: refused, the first stands.
    expect((await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), first.headers, first.body)))).status).toBe(409);
    const second = signedResult(runId, 'x', { state: 'failed', error: 'changed my mind' }, deliveredAttempt);
    expect((await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), second.headers, second.body)))).status).toBe(409);
    expect(await taskOf(runId, 'x')).toMatchObject({ state: 'succeeded', output: 'first', error: null });
  }, 60_000);

  it("refuses, after an operator's retry, a result signed for the generation before", async () => {
    const runId = await runAccepted('Results generations');
    const failed = signedResult(runId, 'x', { state: 'failed', error: 'the executor gave up' }, '1.1');
    await acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), failed.headers, failed.body));
    expect(await taskOf(runId, 'x')).toMatchObject({ state: 'failed', error: 'the executor gave up' });

    await retryTask(handle, runEditor, runId, 'x');
    await expect
      .poll(() => hook.deliveries.filter((d) => d.body?.run_id === runId && d.body?.task_id === 'x').map((d) => d.attempt), { timeout: 20_000, interval: 100 })
      .toEqual(['1.1', '2.1']);
    await expect.poll(async () => (await taskOf(runId, 'x')).state, { timeout: 10_000 }).toBe('running');
    // The first generation's signed bytes, well within their 5 minutes, settle nothing now.
    const replayed = await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), failed.headers, failed.body)));
    expect([replayed.status, replayed.message]).toEqual([409, expect.stringContaining('is for attempt 1.1 of task x, but attempt 2.1 is in flight')]);
    expect((await taskOf(runId, 'x')).state).toBe('running');
    const fresh = signedResult(runId, 'x', { state: 'succeeded', output: 'second generation' }, '2.1');
    await acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), fresh.headers, fresh.body));
    expect(await taskOf(runId, 'x')).toMatchObject({ state: 'succeeded', output: 'second generation' });
  }, 60_000);

  it('refuses a result over the 1 MB output cap while it streams in, before parsing it', async () => {
    const runId = await runAccepted('Results big');
    const big = signedResult(runId, 'x', { state: 'succeeded', output: 'x'.repeat(3_000_000) });
    const tooBig = await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), big.headers, big.body)));
    expect([tooBig.status, tooBig.message]).toEqual([413, expect.stringContaining('a task\'s output may be at most 1000000 bytes')]);
    // Not JSON at all, and not signed right: still 413, so nothing of it was parsed or checked.
    const junk = '{'.repeat(MAX_RESULT_BODY_BYTES + 1);
    expect((await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), big.headers, junk)))).status).toBe(413);
    // Just under the body cap, but the output alone over MAX_OUTPUT_BYTES: 413 too.
    const over = signedResult(runId, 'x', { state: 'succeeded', output: 'x'.repeat(1_000_001) });
    expect((await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), over.headers, over.body)))).status).toBe(413);
    expect(await taskOf(runId, 'x')).toMatchObject({ state: 'running', output: null });
  }, 60_000);

  it('checks the signature before anything else: an unknown run or task answers 401 exactly as a wrong signature does', async () => {
    const runId = await runAccepted('Results probe');
    const attempt = (body: string, headers: Record<string, string>, run: string, task: string) => refusal(acceptSignedResult(handle, run, task, post(resultUrl(run, task), headers, body)));

    const forged = { ...signedResult(runId, 'x', { state: 'succeeded', output: 1 }) };
    forged.headers = { ...forged.headers, 'x-plangate-signature': `sha256=${'0'.repeat(64)}` };
    const wrong = await attempt(forged.body, forged.headers, runId, 'x');
    const noTask = await attempt(forged.body, forged.headers, runId, 'no-such-task');
    const noRun = await attempt(forged.body, forged.headers, '00000000-0000-4000-8000-000000000000', 'x');
    // Even correctly signed by a real executor for a task that does not exist.
    const ghost = signedResult(runId, 'ghost', { state: 'succeeded', output: 1 });
    const signedGhost = await attempt(ghost.body, ghost.headers, runId, 'ghost');
    for (const refused of [wrong, noTask, noRun, signedGhost]) expect([refused.status, refused.message]).toEqual([401, wrong.message]);

    const unsigned = await attempt(forged.body, { 'content-type': 'application/json' }, runId, 'x');
    expect([unsigned.status, unsigned.message]).toEqual([401, expect.stringContaining('X-Plangate-Timestamp is required')]);
    const bareAttempt = hook.resultHeaders(resultUrl(runId, 'x'), '1', forged.body);
    expect((await attempt(forged.body, bareAttempt, runId, 'x')).message).toContain('X-Plangate-Attempt must be the attempt the task was sent with ("<generation>.<attempt>")');
    const stale = signedResult(runId, 'x', { state: 'succeeded', output: 1 });
    const staleHeaders = hook.resultHeaders(resultUrl(runId, 'x'), '1.1', stale.body, Math.floor(Date.now() / 1000) - 600);
    expect((await attempt(stale.body, staleHeaders, runId, 'x')).message).toContain('more than 5 minutes');
    expect(await taskOf(runId, 'x')).toMatchObject({ state: 'running', output: null });
  }, 60_000);

  it('verifies nothing with a secret the operator no longer lists', async () => {
    const runId = await runAccepted('Results unlisted');
    const { body, headers } = signedResult(runId, 'x', { state: 'succeeded', output: 1 });
    vi.stubEnv('PLANGATE_DISPATCH_SECRETS', 'SOMETHING_ELSE');
    try {
      expect((await refusal(acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), headers, body)))).status).toBe(401);
    } finally {
      vi.unstubAllEnvs();
    }
    await acceptSignedResult(handle, runId, 'x', post(resultUrl(runId, 'x'), headers, body));
    expect((await taskOf(runId, 'x')).state).toBe('succeeded');
  }, 60_000);
});
