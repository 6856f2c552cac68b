import { and, eq, sql } from 'drizzle-orm';
import type { Job } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskDataInput } from '@/lib/plan';
import type { RegistryInput } from '@/lib/registry';
import type { RunState } from '@/lib/runs/run-states';
import type { DatabaseHandle } from '../platform/db/client';
import { auditEvents, taskRuns } from '../platform/db/schema';
import { testDatabases } from '../platform/db/test-databases';
import { refusal } from '../platform/test-support';
import { getJobQueue, TASK_QUEUE } from './job-queue';
import { cancelRun, decideGate, pauseRun, resumeRun, retryTask } from './run-control';
import { getRun, runEventsAfter } from './run-queries';
import type { TaskJobData } from './run-scheduler';
import { approvedPlan, approvedRevision, gateApprover, runApprover, runEditor, startSecondWorker } from './run-test-support';
import { startRunWorkers, stopRunWorkers, type WorkerOptions } from './run-workers';
import { scriptedExecutorForFile } from './test-executors-test-support';
import { startRun } from './start-run';
import { runTaskJob } from './task-runner';

// Issue #25's findings about the run engine, each as what a user would notice: gates that
// cannot be skipped, runs that always end, hard cancel and pause, any plan shape, one
// continuation per run, and one idempotency key per task generation, crash or not. Against a
// real executor on 127.0.0.1 speaking the webhook protocol, told per task how to answer.

const SECRET_ENV = 'RUN_GUARANTEES_HOOK_SECRET';
const executor = scriptedExecutorForFile(SECRET_ENV);

const registry = (): RegistryInput => ({ dsl_workflows: [{ id: 'step', description: 'A step', endpoint: { protocol: 'webhook', url: executor.url, secret_env: SECRET_ENV } }] });

function step(id: string, dependencies: string[] = [], parameters: Record<string, unknown> = {}) {
  return { task_id: id, description: `Step ${id}`, execution_type: 'dsl', function_id: 'step', arguments: { step: id } as Record<string, unknown>, dependencies, parameters };
}
const plan = (name: string, tasks: ReturnType<typeof step>[]): TaskDataInput => ({ task_id: `job-${name}`, planned_tasks: tasks });

const options: WorkerOptions = { resultUrl: (run, task) => `http://127.0.0.1:9/api/runs/${run}/tasks/${task}/result`, concurrency: 4 };

async function runReaches(handle: DatabaseHandle, runId: string, state: RunState, timeout = 30_000) {
  await expect
    .poll(
      async () => {
        const run = await getRun(handle.db, runId);
        return run.state === state ? state : `${run.state}: ${run.tasks.map((t) => `${t.task_id}=${t.state}${t.error ? ` (${t.error})` : ''}`).join(', ')}`;
      },
      { timeout, interval: 100 },
    )
    .toBe(state);
  return getRun(handle.db, runId);
}

async function taskReaches(handle: DatabaseHandle, runId: string, taskId: string, state: string, timeout = 20_000) {
  await expect.poll(async () => (await getRun(handle.db, runId)).tasks.find((t) => t.task_id === taskId)?.state, { timeout, interval: 100 }).toBe(state);
  return (await getRun(handle.db, runId)).tasks.find((t) => t.task_id === taskId)!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabases())('the run engine keeps its promises on $name', (database) => {
  let handle: DatabaseHandle;
  const start = async (name: string, tasks: ReturnType<typeof step>[]) => {
    const approved = await approvedPlan(handle, name, plan(name, tasks), registry());
    const { run_id } = await startRun(handle, runEditor, approved.id, { revision: approved.revision, content_hash: approved.content_hash });
    return { runId: run_id, plan: approved };
  };

  beforeAll(async () => {
    handle = await database.open();
    await startRunWorkers(handle, options);
  }, 60_000);
  afterAll(async () => {
    await stopRunWorkers(handle);
    await handle.close();
  });

  it('runs any shape: one task, many independent tasks, several roots joined (2+ tasks without dependencies used to be a 500)', async () => {
    const one = await start('one', [step('solo')]);
    const many = await start('many', [step('i1'), step('i2'), step('i3'), step('i4'), step('i5')]);
    const roots = await start('roots', [step('r1'), step('r2'), step('r3'), step('join', ['r1', 'r2', 'r3'])]);
    for (const { runId } of [one, many, roots]) {
      const run = await runReaches(handle, runId, 'succeeded');
      for (const task of run.tasks) {
        expect(task).toMatchObject({ state: 'succeeded', attempts: 1, generation: 1 });
        expect(executor.callsOf(task.task_id, runId).map((c) => c.idempotencyKey)).toEqual([`${runId}:${task.task_id}:1`]);
      }
    }
    // The join was called only after every root answered.
    const join = executor.callsOf('join', roots.runId)[0];
    for (const root of ['r1', 'r2', 'r3']) expect(executor.callsOf(root, roots.runId)[0].seq).toBeLessThan(join.seq);
  });

  it('each task is sent the input it was approved with, whether or not it reads upstream outputs', async () => {
    const { runId } = await start('inputs', [
      { ...step('fixed'), arguments: { city: 'Oslo' } },
      { ...step('reads', ['fixed']), arguments: { from: '${step[0].task_id}', by: 'key ${step[0].by}' } },
    ]);
    await runReaches(handle, runId, 'succeeded');
    expect(executor.callsOf('fixed', runId).map((c) => c.input)).toEqual([{ city: 'Oslo' }]);
    expect(executor.callsOf('reads', runId).map((c) => c.input)).toEqual([{ from: 'fixed', by: `key ${runId}:fixed:1` }]);
  });

  it("a retried task's gated dependent waits at its gate for a new decision; it never runs ungated", async () => {
    executor.script('gf', 'fail');
    const { runId } = await start('gate-retry', [step('gf', [], { retries: 0 }), step('gg', ['gf'], { requires_approval: true })]);
    const stopped = await runReaches(handle, runId, 'needs_replan');
    expect(stopped.tasks.find((t) => t.task_id === 'gg')!.state).toBe('blocked');
    await retryTask(handle, runEditor, runId, 'gf');
    const waiting = await runReaches(handle, runId, 'awaiting_approval');
    expect(waiting.tasks.find((t) => t.task_id === 'gg')).toMatchObject({ state: 'awaiting_approval', gate_decided_by: null, generation: 2 });
    await sleep(1_500);
    expect(executor.callsOf('gg', runId)).toHaveLength(0);
    await decideGate(handle, gateApprover, runId, 'gg', 'approve');
    const done = await runReaches(handle, runId, 'succeeded');
    expect(done.tasks.find((t) => t.task_id === 'gg')!.gate_decided_by).toBe(gateApprover.username);
    expect(executor.callsOf('gg', runId).map((c) => c.idempotencyKey)).toEqual([`${runId}:gg:2`]);
  });

  it('a task rejected at its gate opens its gate again when retried: a new decision is needed, and the rejection is not taken for one', async () => {
    const { runId } = await start('gate-reject', [step('ra'), step('rg', ['ra'], { requires_approval: true })]);
    await runReaches(handle, runId, 'awaiting_approval');
    await decideGate(handle, gateApprover, runId, 'rg', 'reject', 'not yet');
    const rejected = await runReaches(handle, runId, 'needs_replan');
    expect(rejected.tasks.find((t) => t.task_id === 'rg')).toMatchObject({ state: 'failed', error_kind: 'rejected', gate_decided_by: gateApprover.username });
    await retryTask(handle, runEditor, runId, 'rg');
    const reopened = await runReaches(handle, runId, 'awaiting_approval');
    expect(reopened.tasks.find((t) => t.task_id === 'rg')).toMatchObject({ state: 'awaiting_approval', generation: 2, gate_decided_by: null });
    await sleep(1_500);
    expect(executor.callsOf('rg', runId)).toHaveLength(0);
    await decideGate(handle, runApprover, runId, 'rg', 'approve');
    await runReaches(handle, runId, 'succeeded');
    expect(executor.callsOf('rg', runId).map((c) => c.idempotencyKey)).toEqual([`${runId}:rg:2`]);
  });

  it('a join waits for a branch still running while a failed branch is retried, then runs (it used to stay blocked for good)', async () => {
    executor.script('jf', 'fail');
    executor.script('jb', 'hang');
    const { runId } = await start('join', [step('ja'), step('jf', ['ja'], { retries: 0 }), step('jb', ['ja']), step('jj', ['jf', 'jb'])]);
    await taskReaches(handle, runId, 'jf', 'failed');
    await expect.poll(() => executor.hanging('jb').length, { timeout: 10_000 }).toBe(1);
    await retryTask(handle, runEditor, runId, 'jf');
    await taskReaches(handle, runId, 'jf', 'succeeded');
    // Not blocked, not called: it waits for jb.
    const waiting = await getRun(handle.db, runId);
    expect(waiting.tasks.find((t) => t.task_id === 'jj')!.state).toBe('pending');
    expect(executor.callsOf('jj', runId)).toHaveLength(0);
    executor.release('jb', 'succeed');
    await runReaches(handle, runId, 'succeeded');
    expect(executor.callsOf('jj', runId)).toHaveLength(1);
  });

  it('a job pg-boss fails on its own (deliveries used up) is reconciled: the task fails with a clear error, its dependents are blocked, the run needs a replan', async () => {
    executor.script('lh', 'hang');
    const { runId } = await start('lost', [step('lh'), step('ld', ['lh'])]);
    await expect.poll(() => executor.hanging('lh').length, { timeout: 10_000 }).toBe(1);
    const [row] = await handle.db.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, 'lh')));
    // As pg-boss does when a job's heartbeat stops and it has no retry left.
    await handle.db.execute(sql`UPDATE pgboss.job SET retry_limit = retry_count WHERE id = ${row.jobId}::uuid`);
    const boss = await getJobQueue(handle);
    await boss.fail(TASK_QUEUE, row.jobId!, { message: 'job heartbeat timeout' });
    const stopped = await runReaches(handle, runId, 'needs_replan');
    const lost = stopped.tasks.find((t) => t.task_id === 'lh')!;
    expect(lost).toMatchObject({ state: 'failed', error_kind: 'lost' });
    expect(lost.error).toContain('job heartbeat timeout');
    expect(stopped.tasks.find((t) => t.task_id === 'ld')!.state).toBe('blocked');
    // The call that was under way ends later: what it brings is not taken over the record.
    executor.release('lh', 'succeed');
    await sleep(1_000);
    expect((await getRun(handle.db, runId)).tasks.find((t) => t.task_id === 'lh')!.state).toBe('failed');
  });

  it('a worker killed mid-call: another takes the attempt over within seconds, with the same idempotency key; with no attempt left the task fails with a clear error', async () => {
    await stopRunWorkers(handle);
    // Only the victim works the queue when the run starts, so it holds both calls.
    const victim = await startSecondWorker(handle, options);
    try {
      executor.script('ck', 'hang');
      executor.script('cz', 'hang');
      const { runId } = await start('crash', [step('ck'), step('cz', [], { retries: 0 }), step('cd', ['cz'])]);
      await expect.poll(() => executor.hanging().filter((c) => c.runId === runId).length, { timeout: 10_000 }).toBe(2);
      await victim.kill();
      const killedAt = Date.now();
      await startRunWorkers(handle, options);
      await expect.poll(() => executor.callsOf('ck', runId).length, { timeout: 15_000, interval: 50 }).toBe(2);
      const takeover = executor.callsOf('ck', runId)[1].at - killedAt;
      expect(takeover).toBeLessThan(8_000);
      await taskReaches(handle, runId, 'ck', 'succeeded');
      const run = await runReaches(handle, runId, 'needs_replan');
      expect(run.tasks.find((t) => t.task_id === 'ck')).toMatchObject({ state: 'succeeded', attempts: 2, generation: 1 });
      // The re-delivery carried the key of the first call: the executor can tell it is a repeat.
      expect(executor.callsOf('ck', runId).map((c) => c.idempotencyKey)).toEqual([`${runId}:ck:1`, `${runId}:ck:1`]);
      expect(executor.callsOf('ck', runId).map((c) => c.attempt)).toEqual([1, 2]);
      const cz = run.tasks.find((t) => t.task_id === 'cz')!;
      expect(cz).toMatchObject({ state: 'failed', error_kind: 'lost', attempts: 1 });
      expect(cz.error).toContain('stopped during attempt 1');
      expect(executor.callsOf('cz', runId)).toHaveLength(1);
      expect(run.tasks.find((t) => t.task_id === 'cd')!.state).toBe('blocked');
      const events = await runEventsAfter(handle.db, runId, 0);
      expect(events.some((e) => e.kind === 'task_retrying' && e.task_id === 'ck' && e.detail.lost === true)).toBe(true);
    } finally {
      executor.release(null, 'fail');
      await victim.dispose();
      await startRunWorkers(handle, options);
    }
  }, 60_000);

  it('an approved revision changed in the database after the run started: the task fails with kind integrity, nothing is called, the run fails and the audit chain says so', async () => {
    await stopRunWorkers(handle);
    let runId = '';
    try {
      const started = await start('integrity', [step('ta'), step('tb'), step('tc', ['ta'])]);
      runId = started.runId;
      await handle.db.execute(sql`UPDATE plan_tasks SET body = jsonb_set(body, '{arguments}', '{"step": "tampered"}'::jsonb) WHERE plan_id = ${started.plan.id}`);
    } finally {
      await startRunWorkers(handle, options);
    }
    const run = await runReaches(handle, runId, 'failed');
    const failed = run.tasks.filter((t) => t.state === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((t) => t.error_kind === 'integrity' && /no longer hashes/.test(t.error ?? ''))).toBe(true);
    expect(run.tasks.every((t) => t.state === 'failed' || t.state === 'cancelled')).toBe(true);
    expect(executor.calls.filter((c) => c.runId === runId)).toHaveLength(0);
    const audited = await handle.db.select().from(auditEvents).where(eq(auditEvents.kind, 'run_integrity_failed'));
    expect(audited.some((e) => (e.detail as { run_id?: string }).run_id === runId)).toBe(true);
  });

  it('the switch to running is conditional: a job that is no longer its task’s (an earlier generation delivered again, a cancelled run) makes no call and overwrites nothing', async () => {
    executor.script('sx', 'fail', 'hang');
    const { runId } = await start('stale', [step('sx', [], { retries: 0 })]);
    await taskReaches(handle, runId, 'sx', 'failed');
    const boss = await getJobQueue(handle);
    const [first] = await boss.findJobs<TaskJobData>(TASK_QUEUE, { data: { run_id: runId, task_id: 'sx' } });
    await retryTask(handle, runEditor, runId, 'sx');
    await expect.poll(() => executor.hanging('sx').length, { timeout: 10_000 }).toBe(1);
    const deliverAgain = (job: { id: string; data: TaskJobData }) =>
      runTaskJob(handle, { id: job.id, name: TASK_QUEUE, data: job.data, retryCount: 0, signal: new AbortController().signal } as unknown as Job<TaskJobData>, { id: 'replayer', killed: new AbortController().signal }, options);
    await deliverAgain(first);
    expect(executor.callsOf('sx', runId)).toHaveLength(2);
    expect((await getRun(handle.db, runId)).tasks[0]).toMatchObject({ state: 'running', generation: 2, attempts: 1 });

    await cancelRun(handle, runApprover, runId);
    await taskReaches(handle, runId, 'sx', 'cancelled');
    const [current] = await boss.findJobs<TaskJobData>(TASK_QUEUE, { data: { run_id: runId, task_id: 'sx', generation: 2 } });
    await deliverAgain(current);
    expect(executor.callsOf('sx', runId)).toHaveLength(2);
    expect((await getRun(handle.db, runId)).tasks[0].state).toBe('cancelled');
    expect((await runEventsAfter(handle.db, runId, 0)).filter((e) => e.kind === 'task_started')).toHaveLength(2);
  });

  it('once cancel or pause has answered, no call starts on either of two workers; calls under way are aborted (cancel) or finish (pause)', async () => {
    const second = await startSecondWorker(handle, options);
    try {
      const tasks = Array.from({ length: 40 }, (_, i) => step(`w${i}`));
      for (const task of tasks) executor.always(task.task_id, 'hang');
      const cancelled = await start('hard-cancel', tasks);
      await expect.poll(() => executor.calls.filter((c) => c.runId === cancelled.runId).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
      // Calls end one by one while the cancel is made: new ones keep starting until it answers.
      const releasing = setInterval(() => executor.hanging().filter((c) => c.runId === cancelled.runId).slice(0, 1).forEach((c) => executor.release(c.taskId, 'succeed')), 30);
      await cancelRun(handle, runApprover, cancelled.runId);
      const answeredAt = Date.now();
      clearInterval(releasing);
      await sleep(2_500);
      const calls = executor.calls.filter((c) => c.runId === cancelled.runId);
      // Exactly: no task started after the cancel, and every call is one of a task started
      // before it (a call sent just before the cancel committed may arrive just after it
      // answered); roughly, by the clock.
      const events = await runEventsAfter(handle.db, cancelled.runId, 0, 10_000);
      const cancelSeq = events.find((e) => e.kind === 'run_cancelled')!.seq;
      expect(events.filter((e) => e.kind === 'task_started' && e.seq > cancelSeq)).toHaveLength(0);
      const startedBefore = new Set(events.filter((e) => e.kind === 'task_started').map((e) => e.task_id));
      expect(calls.filter((c) => !startedBefore.has(c.taskId)), 'calls of tasks not started before the cancel').toHaveLength(0);
      const late = calls.filter((c) => c.at > answeredAt + 500);
      expect(late, 'calls that arrived after the cancel answered').toHaveLength(0);
      // The calls under way were cut, not left to finish.
      expect(executor.hanging().filter((c) => c.runId === cancelled.runId)).toHaveLength(0);
      const run = await runReaches(handle, cancelled.runId, 'cancelled');
      expect(run.tasks.every((t) => t.state === 'succeeded' || t.state === 'cancelled')).toBe(true);

      const paused = await start('hard-pause', tasks);
      await expect.poll(() => executor.calls.filter((c) => c.runId === paused.runId).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
      const releasingPaused = setInterval(() => executor.hanging().filter((c) => c.runId === paused.runId).slice(0, 1).forEach((c) => executor.release(c.taskId, 'succeed')), 30);
      await pauseRun(handle, runEditor, paused.runId);
      const pausedAt = Date.now();
      clearInterval(releasingPaused);
      // What was under way finishes and is recorded; nothing new starts.
      const underWay = executor.hanging().filter((c) => c.runId === paused.runId);
      for (const task of tasks) executor.always(task.task_id, null);
      executor.release(null, 'succeed');
      await sleep(2_500);
      expect(executor.calls.filter((c) => c.runId === paused.runId && c.at > pausedAt + 500)).toHaveLength(0);
      const held = await getRun(handle.db, paused.runId);
      expect(held.state).toBe('paused');
      for (const call of underWay) expect(held.tasks.find((t) => t.task_id === call.taskId)!.state).toBe('succeeded');
      await resumeRun(handle, runEditor, paused.runId);
      const done = await runReaches(handle, paused.runId, 'succeeded');
      for (const task of done.tasks) expect(new Set(executor.callsOf(task.task_id, paused.runId).map((c) => c.idempotencyKey)).size).toBe(1);
    } finally {
      executor.release(null, 'fail');
      await second.stop();
    }
  }, 60_000);

  it('a stopped run is continued once: a second continuation, even one asked for at the same moment, is a 409 naming the first', async () => {
    executor.script('cf', 'fail');
    const { runId, plan: approved } = await start('continue-once', [step('ca'), step('cf', ['ca'], { retries: 0 })]);
    await runReaches(handle, runId, 'needs_replan');
    const replanned = await approvedRevision(handle, approved.id, (task) => (task.task_id === 'cf' ? { ...task, arguments: { step: 'cf', note: 'replanned' } } : task));
    const request = { revision: replanned.revision, content_hash: replanned.content_hash, continue_from: runId };
    const both = await Promise.allSettled([startRun(handle, runEditor, approved.id, request), startRun(handle, runEditor, approved.id, request)]);
    const won = both.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const continuation = (won[0] as PromiseFulfilledResult<{ run_id: string }>).value.run_id;
    const lost = await refusal(Promise.reject((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason));
    expect(lost.status).toBe(409);
    expect(lost.message).toContain(continuation);
    const again = await refusal(startRun(handle, runEditor, approved.id, request));
    expect(again.status).toBe(409);
    expect(again.message).toContain(continuation);
    await runReaches(handle, continuation, 'succeeded');
    // The replanned task ran once, in the continuation.
    expect(executor.calls.filter((c) => c.taskId === 'cf' && c.runId === continuation)).toHaveLength(1);
    expect((await refusal(retryTask(handle, runEditor, runId, 'cf'))).status).toBe(409);
  });
});
