import { and, asc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskDataInput } from '@/lib/plan';
import { deriveRunState, FINISHED_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import type { DatabaseHandle } from '../platform/db/client';
import { gateDecisions, runEvents, runs, taskRuns } from '../platform/db/schema';
import { testDatabases } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { getJobQueue, TASK_QUEUE } from './job-queue';
import { cancelRun, decideGate, pauseRun, resumeRun, retryTask } from './run-control';
import { approvedPlan, gateApprover, runEditor, startSecondWorker } from './run-test-support';
import { startRunWorkers, stopRunWorkers, type RunWorker, type WorkerOptions } from './run-workers';
import type { Answer, ScriptedExecutor } from './scripted-executor-test-support';
import { scriptedExecutorForFile } from './test-executors-test-support';
import { startRun } from './start-run';

// The run engine against a model of what it promises, on PGlite: random small plans (1–8
// tasks, random dependencies, gates and retry limits) run by two workers against a real
// executor that answers each call as told (succeed, fail, refuse, hang), driven by random
// interleavings of start, retry, cancel, pause, resume, gate decisions, continuation, a
// worker killed mid-call and a job pg-boss fails on its own. After every step, and after
// draining (hung calls released, gates approved, paused runs resumed), the promises hold:
// - no gated task was called without an approve for the generation it ran in, nor with any
//   input but the one approved (or written) at its gate;
// - no task started after its run's cancel, nor between a pause and the next resume;
// - every call carried its task's key run:task:generation, and matched a started attempt;
// - a reader following a run's events by sequence number missed none;
// - a run's state is what its tasks' states make it;
// - after draining, every run has ended, or needs a replan with nothing under way.
// PLANGATE_MODEL_RUNS sets how many plans are tried (default 4; `npm run bench` runs more).

const SECRET_ENV = 'RUN_MODEL_HOOK_SECRET';
// Closed after this file's describe block has stopped its workers.
const executor = scriptedExecutorForFile(SECRET_ENV);

const NUM_RUNS = Number(process.env.PLANGATE_MODEL_RUNS || 4);
const MAX_COMMANDS = Number(process.env.PLANGATE_MODEL_COMMANDS || 14);
const [database] = testDatabases().filter((d) => d.name === 'pglite');

interface TaskShape {
  deps: number[];
  gated: boolean;
  retries: number;
}

/** A random DAG of 1–8 tasks: each may depend on any earlier one. */
const dagArb: fc.Arbitrary<TaskShape[]> = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        deps: fc.subarray(Array.from({ length: i }, (_, j) => j), { maxLength: Math.min(3, i) }),
        gated: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
        retries: fc.integer({ min: 0, max: 2 }),
      }),
    ),
  ),
);

interface Real {
  handle: DatabaseHandle;
  executor: ScriptedExecutor;
  plan: { id: string; revision: number; content_hash: string };
  taskIds: string[];
  shapes: TaskShape[];
  runIds: string[];
  /** What a live reader of each run's events has seen so far, by following seq. */
  followed: Map<string, number[]>;
  second: { worker: RunWorker & { dispose(): Promise<void> } };
  dead: (RunWorker & { dispose(): Promise<void> })[];
  steps: number;
  /** Gates the drain approved: every other one with an edited input. */
  gatesDrained: number;
}

interface Model {
  runs: number;
}

const options: WorkerOptions = { resultUrl: (run, task) => `http://127.0.0.1:9/api/runs/${run}/tasks/${task}/result`, concurrency: 3, leaseSeconds: 2, quietSeconds: 4 };

/** Calls the engine as a person would; a 409 (the state moved on) or 404 is an answer, anything else is a failure. */
async function control(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof AppError && (error.status === 409 || error.status === 404)) return;
    throw error;
  }
}

const pick = <T,>(items: readonly T[], i: number): T | undefined => (items.length ? items[i % items.length] : undefined);

async function followEvents(real: Real): Promise<void> {
  for (const runId of real.runIds) {
    const seen = real.followed.get(runId) ?? [];
    const after = seen.length ? seen[seen.length - 1] : 0;
    const rows = await real.handle.db
      .select({ seq: runEvents.seq })
      .from(runEvents)
      .where(and(eq(runEvents.runId, runId), sql`${runEvents.seq} > ${after}`))
      .orderBy(asc(runEvents.seq));
    real.followed.set(runId, [...seen, ...rows.map((r) => r.seq)]);
  }
}

/** The promises that must hold at every moment. */
async function checkInvariants(real: Real): Promise<void> {
  const { handle, executor } = real;
  await followEvents(real);
  for (const runId of real.runIds) {
    // One consistent read: on PGlite a transaction runs alone.
    const { run, tasks, events, decisions } = await handle.db.transaction(async (tx) => ({
      run: (await tx.select().from(runs).where(eq(runs.id, runId)))[0],
      tasks: await tx.select().from(taskRuns).where(eq(taskRuns.runId, runId)),
      events: await tx.select().from(runEvents).where(eq(runEvents.runId, runId)).orderBy(asc(runEvents.seq)),
      decisions: await tx.select().from(gateDecisions).where(eq(gateDecisions.runId, runId)),
    }));
    const byId = new Map(tasks.map((t) => [t.taskId, t]));
    const gated = new Set(real.taskIds.filter((_, i) => real.shapes[i].gated));

    // Gates: every start of a gated task had an approve for its generation.
    const starts = events.filter((e) => e.kind === 'task_started');
    for (const start of starts) {
      if (!gated.has(start.taskId!)) continue;
      const generation = (start.detail as { generation: number }).generation;
      expect(decisions.some((d) => d.taskId === start.taskId && d.generation === generation && d.decision === 'approve'), `gated ${start.taskId} started in generation ${generation} without an approve`).toBe(true);
    }

    // Hard stops: no start after a cancel, none between a pause and the next resume.
    let holding: string | null = null;
    for (const event of events) {
      if (event.kind === 'run_cancelled') holding = 'cancelled';
      else if (event.kind === 'run_paused' && holding !== 'cancelled') holding = 'paused';
      else if (event.kind === 'run_resumed' && holding === 'paused') holding = null;
      else if (event.kind === 'task_started') expect(holding, `${event.taskId} started while the run was ${holding}`).toBeNull();
    }

    // Keys: each call names its run, task and a generation that was started, and no attempt made two calls.
    const calls = executor.calls.filter((c) => c.runId === runId);
    for (const call of calls) {
      const match = /^(.+):([^:]+):(\d+)$/.exec(call.idempotencyKey);
      expect(match, call.idempotencyKey).not.toBeNull();
      expect([match![1], match![2]]).toEqual([runId, call.taskId]);
      const generation = Number(match![3]);
      const started = starts.filter((s) => s.taskId === call.taskId && (s.detail as { generation: number }).generation === generation);
      const made = calls.filter((c) => c.taskId === call.taskId && c.idempotencyKey === call.idempotencyKey);
      expect(made.length, `calls with ${call.idempotencyKey} vs attempts started`).toBeLessThanOrEqual(started.length);
      expect(generation).toBeLessThanOrEqual(byId.get(call.taskId)!.generation);
      // A gated task is sent exactly the input its approver approved (or wrote) for that generation.
      const approved = decisions.find((d) => d.taskId === call.taskId && d.generation === generation && d.decision === 'approve');
      if (gated.has(call.taskId) && approved?.inputHash) expect(call.input, `${call.idempotencyKey} sent what was approved`).toEqual(approved.input);
    }

    // A reader following by sequence number saw every event, in order.
    const followed = real.followed.get(runId) ?? [];
    expect(events.slice(0, followed.length).map((e) => e.seq)).toEqual(followed);

    // The run's state is what its tasks make it.
    const counts: Partial<Record<TaskState, number>> = {};
    for (const task of tasks) counts[task.state as TaskState] = (counts[task.state as TaskState] ?? 0) + 1;
    expect(run.state, JSON.stringify(counts)).toBe(deriveRunState(run.state as RunState, counts));
    if (FINISHED_RUN_STATES.has(run.state as RunState)) expect(tasks.filter((t) => t.state === 'pending' && t.jobId)).toHaveLength(0);
  }
}

type Command = fc.AsyncCommand<Model, Real>;
type R = Real;

const command = (name: string, run: (real: R) => Promise<void>, check: (model: Model) => boolean = () => true, update: (model: Model) => void = () => undefined): Command => ({
  check,
  async run(model, real) {
    update(model);
    real.steps++;
    await run(real);
    await checkInvariants(real);
  },
  toString: () => name,
});

// A plain array of commands (fc.commands makes mostly short sequences): at least a handful of steps per plan.
const commandsArb = fc.array(
  fc.oneof(
    fc.constant(
      command(
        'start',
        async (real) => {
          const { run_id } = await startRun(real.handle, runEditor, real.plan.id, { revision: real.plan.revision, content_hash: real.plan.content_hash });
          real.runIds.push(run_id);
        },
        (model) => model.runs < 3,
        (model) => void model.runs++,
      ),
    ),
    fc.tuple(fc.nat(), fc.constantFrom<Answer>('succeed', 'fail', 'refuse', 'hang', 'hang')).map(([i, answer]) =>
      command(`answer(${i}, ${answer})`, async (real) => real.executor.script(pick(real.taskIds, i)!, answer)),
    ),
    fc.constantFrom<'succeed' | 'fail'>('succeed', 'fail').map((answer) => command(`release(${answer})`, async (real) => void real.executor.release(null, answer))),
    fc.tuple(fc.nat(), fc.nat()).map(([r, t]) =>
      command(`retry(${r}, ${t})`, (real) => control(() => retryTask(real.handle, runEditor, pick(real.runIds, r)!, pick(real.taskIds, t)!)), (m) => m.runs > 0),
    ),
    fc.nat().map((r) => command(`cancel(${r})`, (real) => control(() => cancelRun(real.handle, runEditor, pick(real.runIds, r)!)), (m) => m.runs > 0)),
    fc.nat().map((r) => command(`pause(${r})`, (real) => control(() => pauseRun(real.handle, runEditor, pick(real.runIds, r)!)), (m) => m.runs > 0)),
    fc.nat().map((r) => command(`resume(${r})`, (real) => control(() => resumeRun(real.handle, runEditor, pick(real.runIds, r)!)), (m) => m.runs > 0)),
    fc.tuple(fc.nat(), fc.nat(), fc.constantFrom<'approve' | 'edit' | 'reject'>('approve', 'edit', 'reject')).map(([r, t, decision]) =>
      command(
        `decide(${r}, ${t}, ${decision})`,
        (real) =>
          control(() =>
            decision === 'edit'
              ? decideGate(real.handle, gateApprover, pick(real.runIds, r)!, pick(real.taskIds, t)!, 'approve', 'edited', { input: { edited_by_model: t } })
              : decideGate(real.handle, gateApprover, pick(real.runIds, r)!, pick(real.taskIds, t)!, decision),
          ),
        (m) => m.runs > 0,
      ),
    ),
    fc.nat().map((r) =>
      command(
        `continue(${r})`,
        async (real) =>
          control(async () => {
            const { run_id } = await startRun(real.handle, runEditor, real.plan.id, { revision: real.plan.revision, content_hash: real.plan.content_hash, continue_from: pick(real.runIds, r)! });
            real.runIds.push(run_id);
          }),
        (m) => m.runs > 0 && m.runs < 4,
        (m) => void m.runs++,
      ),
    ),
    fc.constant(
      command('kill-worker', async (real) => {
        // The second worker dies as a killed process would; a fresh one takes its place.
        await real.second.worker.kill();
        real.dead.push(real.second.worker);
        real.second.worker = await startSecondWorker(real.handle, options);
      }),
    ),
    fc.tuple(fc.nat(), fc.nat()).map(([r, t]) =>
      command(
        `queue-fails-job(${r}, ${t})`,
        async (real) => {
          // As pg-boss does when a job's heartbeat stops and it has no retry left.
          const [row] = await real.handle.db
            .select()
            .from(taskRuns)
            .where(and(eq(taskRuns.runId, pick(real.runIds, r)!), eq(taskRuns.taskId, pick(real.taskIds, t)!)));
          if (!row?.jobId || row.state !== 'running') return;
          await real.handle.db.execute(sql`UPDATE pgboss.job SET retry_limit = retry_count WHERE id = ${row.jobId}::uuid`);
          await (await getJobQueue(real.handle)).fail(TASK_QUEUE, row.jobId, { message: 'job heartbeat timeout' }).catch(() => undefined);
        },
        (m) => m.runs > 0,
      ),
    ),
    fc.integer({ min: 50, max: 1_200 }).map((ms) => command(`wait(${ms})`, () => new Promise((resolve) => setTimeout(resolve, ms)))),
  ),
  { minLength: 6, maxLength: MAX_COMMANDS },
);

/** Lets everything finish: hung calls answered, gates approved, paused runs resumed, until each run has ended or needs a replan with nothing under way. */
async function drain(real: R): Promise<void> {
  for (const taskId of real.taskIds) {
    real.executor.script(taskId);
    real.executor.always(taskId, null);
  }
  const deadline = Date.now() + 45_000;
  for (;;) {
    real.executor.release(null, 'succeed');
    let settled = true;
    for (const runId of real.runIds) {
      const [run] = await real.handle.db.select().from(runs).where(eq(runs.id, runId));
      const tasks = await real.handle.db.select().from(taskRuns).where(eq(taskRuns.runId, runId));
      if (run.state === 'paused') await control(() => resumeRun(real.handle, runEditor, runId));
      // Every other gate is approved with an input of the approver's own.
      for (const task of tasks.filter((t) => t.state === 'awaiting_approval')) {
        const edit = ++real.gatesDrained % 2 === 0;
        await control(() => decideGate(real.handle, gateApprover, runId, task.taskId, 'approve', '', edit ? { input: { edited_by_model: real.gatesDrained } } : undefined));
      }
      const underWay = tasks.filter((t) => t.state === 'running' || t.state === 'retrying' || t.state === 'awaiting_approval' || (t.state === 'pending' && t.jobId));
      const ended = FINISHED_RUN_STATES.has(run.state as RunState) || run.state === 'needs_replan';
      if (!ended || underWay.length) settled = false;
    }
    await checkInvariants(real);
    if (settled) return;
    if (Date.now() > deadline) {
      const states = await Promise.all(real.runIds.map(async (id) => ({ id, run: (await real.handle.db.select().from(runs).where(eq(runs.id, id)))[0].state, tasks: (await real.handle.db.select().from(taskRuns).where(eq(taskRuns.runId, id))).map((t) => `${t.taskId}=${t.state}/${t.jobId ? 'job' : '-'}`) })));
      throw new Error(`Runs did not end: ${JSON.stringify(states)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('the run engine against its model, on PGlite', () => {
  let handle: DatabaseHandle;
  let second: { worker: RunWorker & { dispose(): Promise<void> } };
  const dead: (RunWorker & { dispose(): Promise<void> })[] = [];
  let totalSteps = 0;
  let plans = 0;

  beforeAll(async () => {
    handle = await database.open();
    await startRunWorkers(handle, options);
    second = { worker: await startSecondWorker(handle, options) };
  }, 60_000);
  afterAll(async () => {
    console.log(`[model] ${plans} plans, ${totalSteps} steps`);
    executor.release(null, 'fail');
    await second?.worker.stop();
    for (const worker of dead) await worker.dispose();
    await stopRunWorkers(handle);
    await handle?.close();
  }, 60_000);

  it('keeps every promise under random plans and random interleavings of controls, crashes and queue failures', async () => {
    await fc.assert(
      fc.asyncProperty(dagArb, commandsArb, async (shapes, commands) => {
        plans++;
        const prefix = `m${plans}`;
        const taskIds = shapes.map((_, i) => `${prefix}t${i}`);
        const doc: TaskDataInput = {
          task_id: `job-${prefix}`,
          planned_tasks: shapes.map((shape, i) => ({
            task_id: taskIds[i],
            description: `Model task ${i}`,
            execution_type: 'dsl',
            function_id: 'model',
            arguments: { i },
            dependencies: shape.deps.map((d) => taskIds[d]),
            parameters: { retries: shape.retries, retry_delay_seconds: 0, timeout_seconds: 20, ...(shape.gated ? { requires_approval: true } : {}) },
          })),
        };
        const registry = { dsl_workflows: [{ id: 'model', description: 'The model executor', endpoint: { protocol: 'webhook' as const, url: executor.url, secret_env: SECRET_ENV } }] };
        const plan = await approvedPlan(handle, `Model ${prefix}`, doc, registry);
        const real: R = { handle, executor, plan, taskIds, shapes, runIds: [], followed: new Map(), second, dead, steps: 0, gatesDrained: 0 };
        try {
          // Every plan gets one run at once; the commands may start more.
          const { run_id } = await startRun(handle, runEditor, plan.id, { revision: plan.revision, content_hash: plan.content_hash });
          real.runIds.push(run_id);
          await fc.asyncModelRun(() => ({ model: { runs: 1 }, real }), commands);
          await drain(real);
        } finally {
          totalSteps += real.steps;
        }
      }),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
  }, 600_000);
});
