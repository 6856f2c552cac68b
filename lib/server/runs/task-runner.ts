import 'server-only';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Job } from 'pg-boss';
import { executionKind, isExecutionType, type PlannerTask } from '@/lib/plan';
import { referencedTasks, resolveFixedInput, resolveTaskInput } from '@/lib/runs/resolve-input';
import { FINISHED_TASK_STATES, idempotencyKey, STARTABLE_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import { maxAttempts, requiresApproval, timeoutSeconds } from '@/lib/runs/task-policy';
import { runConvertor } from '@/lib/simulate/sandbox/run-convertor';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { gateDecisions, runs, taskRuns } from '../platform/db/schema';
import { dispatcherFor } from './dispatch/dispatch';
import { DispatchError, MAX_OUTPUT_BYTES } from './dispatch/dispatch-types';
import { getJobQueue, jobsIn, TASK_QUEUE } from './job-queue';
import { announceWaitingGates } from './gate-notice';
import { STOPPED_RUN_STATES, watchForStop } from './run-calls';
import { failRunForIntegrity, isIntegrityError } from './run-integrity';
import { appendRunEvents, nextRunEvent, type DerivedEvents, type RunEventInput } from './run-events';
import { groupCommit } from './run-batches';
import { approvedResource, loadRunContext, lockRunRow, recordEventsAndRefresh, refreshRunState, taskRunsOf, type RunContext, type RunRow, type TaskRunRow } from './run-records';
import { afterTaskSettled, releaseReleased, shapeOf, type TaskJobData } from './run-scheduler';

// One job of a task: it opens the task's gate, or starts one attempt of it. Plangate's
// records (task_runs) are the truth; pg-boss only decides when a job runs and runs it again
// after a failed call or a dead worker. The switch to `running` is one conditional update,
// in a transaction holding the run's row lock: the run must be running, the task waiting
// in this generation with this job, and a gated task approved for this generation. If it
// does not match, no call is made. Every later write is fenced on the attempt it started
// (generation, attempt number, worker), so a worker presumed dead cannot overwrite what the
// worker that took over recorded. The claims and the ends of attempts of one run that this
// process's jobs make at about the same time share one transaction (run-batches.ts), each
// decided and fenced on its own.

/** Thrown to have pg-boss deliver the job again, after its backoff. */
class RetryLater extends Error {}

/** A resolved input larger than this is refused rather than sent. */
const MAX_INPUT_BYTES = 2_000_000;

export interface RunnerOptions {
  /** The URL executors post 202-accepted results to: `${origin}/api/runs/{run}/tasks/{task}/result`. */
  resultUrl(runId: string, taskId: string): string;
}

/** The worker running a job: its id (its heartbeat is the lease on the attempts it holds). */
export interface WorkerIdentity {
  id: string;
  /**
   * Aborted when the worker is killed (tests and the bench simulate a process killed
   * mid-call): its handlers then write nothing more, as a dead process would not.
   */
  killed: AbortSignal;
}

/** Each task's `_outputPath` (where it writes `†state`), per approved document. */
const outputPathsOf = new WeakMap<RunContext['document'], Map<string, string>>();
function outputPaths(context: RunContext): Map<string, string> {
  let paths = outputPathsOf.get(context.document);
  if (!paths) {
    paths = new Map();
    for (const task of context.document.plan.planned_tasks) {
      const path = (task.parameters as Record<string, unknown>)._outputPath;
      if (typeof path === 'string') paths.set(task.task_id, path);
    }
    outputPathsOf.set(context.document, paths);
  }
  return paths;
}

function recordedOutputs(context: RunContext, records: TaskRunRow[]) {
  const outputs = new Map(records.filter((r) => r.state === 'succeeded').map((r) => [r.taskId, r.output]));
  return { taskIds: context.taskIds, outputs, outputPaths: outputPaths(context) };
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null) ?? 'null', 'utf8');

const forever = () => new Promise<never>(() => undefined);

interface Attempt {
  runId: string;
  taskId: string;
  generation: number;
  attempt: number;
  workerId: string;
}

type Outcome =
  | { state: 'succeeded'; output: unknown }
  | { state: 'failed'; error: string; kind: 'call' | 'input'; retryable: boolean }
  | { state: 'cancelled'; error: string };

/** One attempt's end, waiting for its run's next settle batch. */
interface Settlement {
  context: RunContext;
  at: Attempt;
  outcome: Outcome;
  /** The job that ran the attempt: completed in the transaction that records the attempt's end. */
  job: Job<TaskJobData>;
}

/** A batch's successes as one fenced update of their rows, returning those it recorded (a stale attempt's row does not match). */
function successUpdate(runId: string, items: Settlement[], finishedAt: string): SQL {
  const keys = items.map(({ at }) => sql`${at.taskId}`);
  const values = items.map(({ at, outcome }, ord) => {
    const output = (outcome as { output: unknown }).output;
    return sql`(${ord}::int, ${at.taskId}, ${at.generation}::int, ${at.attempt}::int, ${at.workerId}, ${output === undefined ? null : JSON.stringify(output)}::jsonb, ${finishedAt}::timestamptz)`;
  });
  return sql`
    UPDATE task_runs SET state = 'succeeded', output = COALESCE(v.output, task_runs.output), error = NULL, error_kind = NULL,
      finished_at = v.finished_at, released = TRUE, worker_id = NULL, job_id = NULL
    FROM (VALUES ${sql.join(values, sql`, `)}) AS v(ord, task_id, generation, attempt, worker_id, output, finished_at)
    WHERE task_runs.run_id = ${runId} AND task_runs.task_id IN (${sql.join(keys, sql`, `)}) AND task_runs.task_id = v.task_id AND task_runs.generation = v.generation
      AND task_runs.attempts = v.attempt AND task_runs.worker_id = v.worker_id AND task_runs.state = 'running'
    RETURNING v.ord, v.task_id, v.generation, v.attempt, v.worker_id`;
}

type SettleResult = 'retry' | 'done' | 'stale';

interface Settled {
  /** Per attempt; those of successes recorded in the events' statement are filled in by `recorded`. */
  results: SettleResult[];
  /** The successes to record in the statement that records the batch's events, and the ids of the tasks they finish. */
  derived?: DerivedEvents;
  finishing?: SQL;
  /** Marks which of those the statement recorded, from its row. */
  recorded(row: Record<string, unknown> | undefined): void;
}

/**
 * Records how attempts of one run ended, each only if it is still the task's attempt in
 * flight (generation, attempt number, worker, running): a retryable failure with attempts
 * left becomes `retrying` (its caller has pg-boss deliver the job again). The successes go
 * in one fenced update that also marks them released, and their dependents are counted down
 * and queued together. A success with no dependents, of a task no job of the batch claims,
 * is recorded in the statement that records the batch's events instead (`derived`): nothing
 * waits on it, and nothing else in the batch reads or writes its row, so it needs no
 * statement of its own. Answers, per attempt, 'retry', 'done', or 'stale' (someone else's
 * record stands); the events go to `events`.
 */
async function settleIn(handle: DatabaseHandle, tx: Database, runId: string, items: Settlement[], events: RunEventInput[], claimed: ReadonlySet<string>): Promise<Settled> {
  const tasks = items[0].context.document.plan.planned_tasks;
  const { dependents } = shapeOf(tasks);
  const fence = (at: Attempt) => `${at.taskId}\n${at.generation}\n${at.attempt}\n${at.workerId}`;
  const successes = items.filter((item) => item.outcome.state === 'succeeded');
  const folded = new Set(successes.filter(({ at }) => !dependents.get(at.taskId)?.length && !claimed.has(at.taskId)));
  const direct = successes.filter((item) => !folded.has(item));
  const settledSuccesses = new Set<string>();
  for (let i = 0; i < direct.length; i += 500) {
    const result = await tx.execute(successUpdate(runId, direct.slice(i, i + 500), new Date().toISOString()));
    for (const row of (result as unknown as { rows: Array<{ task_id: string; generation: number; attempt: number; worker_id: string }> }).rows) {
      settledSuccesses.add(fence({ runId, taskId: row.task_id, generation: Number(row.generation), attempt: Number(row.attempt), workerId: row.worker_id }));
    }
  }

  const released: string[] = [];
  const results: SettleResult[] = [];
  for (const item of items) {
    const { context, at, outcome } = item;
    const detail = { attempt: at.attempt, generation: at.generation };
    if (folded.has(item)) {
      results.push('stale');
      continue;
    }
    if (outcome.state === 'succeeded') {
      if (!settledSuccesses.has(fence(at))) {
        results.push('stale');
        continue;
      }
      events.push({ kind: 'task_succeeded', taskId: at.taskId, detail });
      released.push(at.taskId);
      results.push('done');
      continue;
    }
    const task = context.tasks.get(at.taskId)!;
    const retry = outcome.state === 'failed' && outcome.retryable && at.attempt < maxAttempts(task);
    const state: TaskState = retry ? 'retrying' : outcome.state;
    const patch: Partial<TaskRunRow> =
      outcome.state === 'cancelled'
        ? { state, error: outcome.error, finishedAt: new Date() }
        : { state, error: outcome.error, errorKind: retry ? null : outcome.kind, finishedAt: retry ? null : new Date() };
    const settled = await tx
      .update(taskRuns)
      .set({ ...patch, workerId: null, jobId: retry ? undefined : null })
      .where(
        and(
          eq(taskRuns.runId, runId),
          eq(taskRuns.taskId, at.taskId),
          eq(taskRuns.generation, at.generation),
          eq(taskRuns.attempts, at.attempt),
          eq(taskRuns.workerId, at.workerId),
          eq(taskRuns.state, 'running'),
        ),
      )
      .returning({ taskId: taskRuns.taskId });
    if (!settled.length) {
      results.push('stale');
      continue;
    }
    events.push(
      outcome.state === 'cancelled'
        ? { kind: 'task_cancelled', taskId: at.taskId, detail: { ...detail, error: outcome.error } }
        : { kind: retry ? 'task_retrying' : 'task_failed', taskId: at.taskId, detail: { ...detail, error: outcome.error, error_kind: outcome.kind } },
    );
    if (state === 'failed') {
      // Its own event before those of the tasks it blocks.
      await appendRunEvents(tx, runId, events.splice(0));
      await afterTaskSettled(handle, tx, runId, tasks, at.taskId, state);
    }
    results.push(retry ? 'retry' : 'done');
  }
  // The successes are released to their dependents here, in the update that recorded them.
  await releaseReleased(handle, tx, runId, tasks, released);
  if (!folded.size) return { results, recorded: () => undefined };
  const foldedItems = [...folded];
  return {
    results,
    derived: {
      with: sql`succeeded AS (${successUpdate(runId, foldedItems, new Date().toISOString())})`,
      rows: sql`SELECT ord, 'task_succeeded' AS kind, task_id, jsonb_build_object('attempt', attempt, 'generation', generation) AS detail FROM succeeded`,
      columns: sql`(SELECT COALESCE(json_agg(json_build_array(task_id, generation, attempt, worker_id)), '[]'::json) FROM succeeded) AS succeeded`,
    },
    finishing: sql`(SELECT task_id FROM succeeded)`,
    recorded(row) {
      const value = row?.succeeded;
      const rows = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as Array<[string, number, number, string]>;
      const done = new Set(rows.map(([taskId, generation, attempt, workerId]) => fence({ runId, taskId, generation: Number(generation), attempt: Number(attempt), workerId })));
      items.forEach((item, i) => {
        if (folded.has(item)) results[i] = done.has(fence(item.at)) ? 'done' : 'stale';
      });
    },
  };
}

/** What a job found at its claim: nothing to do, a run whose record fails its check, or an attempt started. */
type Claim =
  | { start: false; integrity?: string }
  | {
      start: true;
      context: RunContext;
      task: PlannerTask;
      attempt: number;
      /** The input a person approved at the task's gate (maybe edited there), else the resolved one. */
      input: unknown;
      approved: boolean;
      /** What the resolved input could not fill in (moot when a person approved an input). */
      unresolved: string[];
    };

interface ClaimRequest {
  job: Job<TaskJobData>;
  worker: WorkerIdentity;
}

/**
 * Decides, under the run's row lock, what each of these jobs of one run does: nothing (it is
 * not the task's current job, the run stopped), hold (the run is paused: resuming queues it
 * again), open the gate (a gated task with no approve for this generation), fail (its
 * attempts were used up by workers that died mid-call), or start an attempt, recorded before
 * any call is made. In the batch's transaction: the rows read together, the switches to
 * running made by one conditional update that repeats every condition per task; the events
 * go to `events`.
 *
 * A task with no gate whose input reads no recorded output, in a run that may start tasks,
 * needs nothing from its row to decide but whether it starts, and its switch decides that:
 * it is made without reading the row first ("unread"), with every condition in the update,
 * the attempt counted from the row there and the attempts left checked there. A job whose
 * unread switch changed nothing is decided again with its row read (`started` answers
 * which): its task may be finished, its attempts used up, or the job not the current one.
 */
interface Claimed {
  /** Each request's claim; those that start are filled in by `started`. */
  claims: Claim[];
  refresh: boolean;
  gatesOpened: string[];
  /** The switches to running, to go in the statement that records the batch's events. */
  derived: DerivedEvents[];
  /** Marks the claims that started, from that statement's row; answers the requests (by index) to decide again with their rows read. */
  started(row: Record<string, unknown> | undefined): number[];
}

const nothingStarted = () => [];

async function claimIn(handle: DatabaseHandle, tx: Database, run: RunRow, requests: ClaimRequest[], events: RunEventInput[], unread = true): Promise<Claimed> {
  const runId = run.id;
  const runState = run.state as RunState;
  let context: RunContext;
  try {
    context = await loadRunContext(tx, runId, run);
  } catch (error) {
    // The approved revision no longer hashes as approved: nothing more of this run runs.
    if (isIntegrityError(error)) return { claims: requests.map(() => ({ start: false, integrity: (error as Error).message })), refresh: false, gatesOpened: [], derived: [], started: nothingStarted };
    throw error;
  }
  const tasks = context.document.plan.planned_tasks;
  const paths = outputPaths(context);
  const claims: Claim[] = requests.map(() => ({ start: false }));
  const unreads: Array<{ index: number; task: PlannerTask; input: unknown; unresolved: string[]; job: Job<TaskJobData>; worker: WorkerIdentity }> = [];
  if (unread && STARTABLE_RUN_STATES.has(runState)) {
    const jobsOf = new Map<string, number>();
    for (const { job } of requests) jobsOf.set(job.data.task_id, (jobsOf.get(job.data.task_id) ?? 0) + 1);
    requests.forEach(({ job, worker }, index) => {
      const task = context.tasks.get(job.data.task_id);
      if (!task || requiresApproval(task) || jobsOf.get(task.task_id) !== 1) return;
      const fixed = resolveFixedInput(task, context.taskIds, paths);
      if (fixed) unreads.push({ index, task, input: fixed.input, unresolved: fixed.unresolved, job, worker });
    });
  }
  const unreadIndex = new Set(unreads.map((u) => u.index));
  const read = requests.map((request, index) => ({ ...request, index })).filter(({ index }) => !unreadIndex.has(index));
  // The claimed tasks' records and those their inputs may read, not the whole run.
  const wanted = new Set<string>();
  for (const { job } of read) {
    const task = context.tasks.get(job.data.task_id);
    if (!task) continue;
    wanted.add(task.task_id);
    for (const id of referencedTasks(task, context.taskIds, paths)) wanted.add(id);
  }
  const gatedIds = read.map((r) => context.tasks.get(r.job.data.task_id)).filter((t): t is PlannerTask => !!t && requiresApproval(t)).map((t) => t.task_id);
  const rows = wanted.size ? await tx.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), inArray(taskRuns.taskId, [...wanted]))).for('update') : [];
  const byId = new Map(rows.map((r) => [r.taskId, r]));
  const recorded = recordedOutputs(context, rows);
  const decisions = gatedIds.length ? await tx.select().from(gateDecisions).where(and(eq(gateDecisions.runId, runId), inArray(gateDecisions.taskId, gatedIds))) : [];

  const gatesOpened: string[] = [];
  let refresh = false;
  const switches: Array<{ index: number; row: TaskRunRow; task: PlannerTask; job: Job<TaskJobData>; worker: WorkerIdentity; attempt: number; input: unknown; approved: boolean; unresolved: string[]; lost: string | null }> = [];
  const taken = new Set<string>();
  for (const { job, worker, index } of read) {
    const taskId = job.data.task_id;
    const generation = job.data.generation ?? 1;
    const task = context.tasks.get(taskId);
    if (!task) {
      claims[index] = { start: false, integrity: `Run ${runId}: its job names task ${taskId}, which revision ${context.run.revision} does not have` };
      continue;
    }
    const row = byId.get(taskId);
    // One job per task may act in a batch: a second one for the task cannot be its current job.
    if (!row || row.generation !== generation || row.jobId !== job.id || taken.has(taskId)) {
      claims[index] = { start: false };
      continue;
    }
    taken.add(taskId);
    const state = row.state as TaskState;
    if (FINISHED_TASK_STATES.has(state) || state === 'awaiting_approval') {
      claims[index] = { start: false };
      continue;
    }
    const key = and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId));
    // Running, yet pg-boss gave this job to us: the worker of that attempt stopped (its job's heartbeat or time ran out).
    const lost = state === 'running' ? `Its worker stopped during attempt ${row.attempts}` : null;

    if (runState === 'cancelled' || runState === 'failed') {
      await tx.update(taskRuns).set({ state: 'cancelled', jobId: null, workerId: null, finishedAt: new Date(), error: `Not run: the run was ${runState}` }).where(key);
      events.push({ kind: 'task_cancelled', taskId });
      refresh = true;
      claims[index] = { start: false };
      continue;
    }
    if (!STARTABLE_RUN_STATES.has(runState)) {
      // Paused: held without a job; resuming queues a new one. An attempt a dead worker left
      // running waits as a retry.
      await tx
        .update(taskRuns)
        .set(lost ? { jobId: null, workerId: null, state: 'retrying', error: lost } : { jobId: null })
        .where(key);
      if (lost) events.push({ kind: 'task_retrying', taskId, detail: { attempt: row.attempts, generation, error: lost, lost: true } });
      claims[index] = { start: false };
      continue;
    }

    const resolved = resolveTaskInput(task, recorded);
    let approved: { input: unknown } | undefined;
    if (requiresApproval(task)) {
      const decision = decisions.find((d) => d.taskId === taskId && d.generation === generation);
      if (!decision) {
        // Its dependencies are done: a person decides now, for this generation.
        await tx.update(taskRuns).set({ state: 'awaiting_approval', input: resolved.input, jobId: null, workerId: null }).where(key);
        events.push({ kind: 'gate_waiting', taskId, detail: { generation, unresolved: resolved.unresolved } });
        gatesOpened.push(taskId);
        refresh = true;
        claims[index] = { start: false };
        continue;
      }
      if (decision.decision !== 'approve') {
        claims[index] = { start: false };
        continue;
      }
      // Decisions recorded before gates kept their input carry no hash: those run on the resolved input.
      if (decision.inputHash) approved = { input: decision.input ?? null };
    }

    if (row.attempts >= maxAttempts(task)) {
      const error = `${lost ?? `Attempt ${row.attempts} did not finish`}, and it was its last (${maxAttempts(task)} allowed)`;
      await tx.update(taskRuns).set({ state: 'failed', error, errorKind: 'lost', jobId: null, workerId: null, finishedAt: new Date() }).where(key);
      events.push({ kind: 'task_failed', taskId, detail: { attempt: row.attempts, generation, error, error_kind: 'lost' } });
      // Its own event before those of the tasks it blocks.
      await appendRunEvents(tx, runId, events.splice(0));
      await afterTaskSettled(handle, tx, runId, tasks, taskId, 'failed');
      refresh = true;
      claims[index] = { start: false };
      continue;
    }
    switches.push({ index, row, task, job, worker, attempt: row.attempts + 1, input: approved ? approved.input : resolved.input, approved: !!approved, unresolved: resolved.unresolved, lost });
    claims[index] = { start: false };
  }

  // The switch itself repeats every condition, so it cannot overwrite a state it did not see.
  // The tasks are named by key as well as joined, and the state is tested as an expression,
  // so the planner finds each task by its key: through the (run_id, state) index, or a scan,
  // it would read every pending task of the run (its statistics are rarely fresh during a
  // run, PGlite's never). It goes in the statement that records the batch's events: its own
  // events (task_started, and task_retrying for an attempt a dead worker left) are made there
  // from the rows it switched, so a task that did not switch gets none. It changes no kind of
  // task state the run has (waiting or running are both unfinished), so the run state's
  // probes riding on that statement stay true.
  const startedAt = new Date().toISOString();
  const derived: DerivedEvents[] = [];
  const startable = sql`EXISTS (SELECT 1 FROM runs WHERE runs.id = ${runId} AND runs.state IN ('running', 'awaiting_approval', 'needs_replan'))`;
  // Per task: task_retrying (an attempt a dead worker left) before task_started.
  const eventsOf = (cte: string) =>
    sql.raw(`SELECT 2 * ord AS ord, 'task_retrying' AS kind, task_id, jsonb_build_object('attempt', lost_attempt, 'generation', generation, 'error', lost, 'lost', true) AS detail FROM ${cte} WHERE lost IS NOT NULL
      UNION ALL SELECT 2 * ord + 1, 'task_started', task_id, jsonb_build_object('attempt', attempt, 'generation', generation, 'worker', worker_id) FROM ${cte}`);
  if (switches.length) {
    const keys = switches.map((c) => sql`${c.row.taskId}`);
    const values = switches.map(
      (s, ord) =>
        sql`(${ord}::int, ${s.row.taskId}, ${s.attempt}::int, ${s.worker.id}, ${s.row.generation}::int, ${s.job.id}, ${s.input === undefined ? null : JSON.stringify(s.input)}::jsonb, ${startedAt}::timestamptz, ${requiresApproval(s.task)}::boolean, ${s.lost}::text, ${s.row.attempts}::int)`,
    );
    derived.push({
      with: sql`switched AS (
        UPDATE task_runs SET state = 'running', attempts = v.attempt, worker_id = v.worker_id, started_at = COALESCE(task_runs.started_at, v.started_at),
          input = COALESCE(v.input, task_runs.input), error = NULL, error_kind = NULL
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(ord, task_id, attempt, worker_id, generation, job_id, input, started_at, gated, lost, lost_attempt)
        WHERE task_runs.run_id = ${runId} AND task_runs.task_id IN (${sql.join(keys, sql`, `)}) AND task_runs.task_id = v.task_id
          AND task_runs.generation = v.generation AND task_runs.job_id = v.job_id
          AND (task_runs.state || '') IN ('pending', 'retrying', 'running')
          AND ${startable}
          AND (NOT v.gated OR EXISTS (SELECT 1 FROM gate_decisions d WHERE d.run_id = ${runId} AND d.task_id = v.task_id AND d.generation = v.generation AND d.decision = 'approve'))
        RETURNING v.ord, v.task_id, v.attempt, v.worker_id, v.generation, v.lost, v.lost_attempt)`,
      rows: eventsOf('switched'),
      columns: sql`(SELECT COALESCE(json_agg(task_id), '[]'::json) FROM switched) AS started`,
    });
  }
  if (unreads.length) {
    // The same conditions as above, less the gate (these tasks have none), plus the attempts
    // left, which the row read would have checked; the attempt is counted from the row as it
    // was (`was`, the row before this statement), which also tells an attempt a dead worker left.
    const keys = unreads.map((u) => sql`${u.task.task_id}`);
    const values = unreads.map(
      (u, ord) =>
        sql`(${ord}::int, ${u.task.task_id}, ${u.worker.id}, ${u.job.data.generation ?? 1}::int, ${u.job.id}, ${u.input === undefined ? null : JSON.stringify(u.input)}::jsonb, ${startedAt}::timestamptz, ${maxAttempts(u.task)}::int)`,
    );
    derived.push({
      with: sql`started_unread AS (
        UPDATE task_runs SET state = 'running', attempts = was.attempts + 1, worker_id = v.worker_id, started_at = COALESCE(task_runs.started_at, v.started_at),
          input = COALESCE(v.input, task_runs.input), error = NULL, error_kind = NULL
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(ord, task_id, worker_id, generation, job_id, input, started_at, max_attempts)
          JOIN task_runs was ON was.run_id = ${runId} AND was.task_id = v.task_id
        WHERE task_runs.run_id = ${runId} AND task_runs.task_id IN (${sql.join(keys, sql`, `)}) AND task_runs.task_id = v.task_id
          AND task_runs.generation = v.generation AND task_runs.job_id = v.job_id
          AND (task_runs.state || '') IN ('pending', 'retrying', 'running') AND task_runs.attempts < v.max_attempts
          AND ${startable}
        RETURNING v.ord, v.task_id, was.attempts + 1 AS attempt, v.worker_id, v.generation,
          CASE WHEN was.state = 'running' THEN 'Its worker stopped during attempt ' || was.attempts END AS lost, was.attempts AS lost_attempt)`,
      rows: eventsOf('started_unread'),
      columns: sql`(SELECT COALESCE(json_agg(json_build_array(task_id, attempt)), '[]'::json) FROM started_unread) AS started_unread`,
    });
  }
  const listOf = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : ((value as T[] | undefined) ?? []));
  const started = (row: Record<string, unknown> | undefined) => {
    const startedIds = new Set(listOf<string>(row?.started));
    for (const s of switches) {
      if (startedIds.has(s.row.taskId)) claims[s.index] = { start: true, context, task: s.task, attempt: s.attempt, input: s.input, approved: s.approved, unresolved: s.unresolved };
    }
    const attempts = new Map(listOf<[string, number]>(row?.started_unread).map(([taskId, attempt]) => [taskId, Number(attempt)]));
    const again: number[] = [];
    for (const u of unreads) {
      const attempt = attempts.get(u.task.task_id);
      if (attempt === undefined) again.push(u.index);
      else claims[u.index] = { start: true, context, task: u.task, attempt, input: u.input, approved: false, unresolved: u.unresolved };
    }
    return again;
  };
  return { claims, refresh, gatesOpened, derived, started };
}

/** A task transition waiting for its run's next batch: a job's claim, or an attempt's end. */
type Transition = { claim: ClaimRequest } | { settle: Settlement };

/**
 * One batch of a run's transitions (run-batches.ts), in one transaction under the run's row
 * lock: the attempts that ended are recorded first (their dependents queued), then the jobs
 * fetched are claimed; the events of both go in one insert with one NOTIFY, and the run's
 * state is brought in line once.
 */
async function transitionsOf(handle: DatabaseHandle, runId: string, take: () => Transition[]): Promise<Array<Claim | 'retry' | 'done' | 'stale'>> {
  // Started before the transaction: on PGlite starting it inside one would wait forever.
  const boss = await getJobQueue(handle);
  const finished: Array<Job<TaskJobData>> = [];
  const results = await handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    // What is queued now, with the lock held: on PostgreSQL this transaction asked for the
    // lock while the batch before it was being written, and everything that arrived meanwhile joins.
    const items = take();
    if (!items.length) return [];
    const events: RunEventInput[] = [];
    const settlements = items.flatMap((item) => ('settle' in item ? [item.settle] : []));
    const requests = items.flatMap((item) => ('claim' in item ? [item.claim] : []));
    const settled = settlements.length ? await settleIn(handle, tx, runId, settlements, events, new Set(requests.map((r) => r.job.data.task_id))) : undefined;
    const claimed: Claimed = requests.length ? await claimIn(handle, tx, run, requests, events) : { claims: [], refresh: false, gatesOpened: [], derived: [], started: nothingStarted };
    // The successes recorded here and the switches to running go in the statement that records
    // the events. A refresh for what else happened, on the row locked above (nothing before it
    // writes the run's row), its probes riding on that statement too: starting changes no run state.
    const derived = [...(settled?.derived ? [settled.derived] : []), ...claimed.derived];
    const row = settlements.length || claimed.refresh ? (await recordEventsAndRefresh(tx, run, events, derived, settled?.finishing)).row : await appendRunEvents(tx, runId, events, undefined, derived);
    settled?.recorded(row);
    const again = claimed.started(row);
    if (again.length) {
      // Unread switches that changed nothing: decided with their rows read, on the run's row as
      // it is now (the statement above may have changed its state).
      const now = await lockRunRow(tx, runId);
      const more: RunEventInput[] = [];
      const decided = await claimIn(handle, tx, now, again.map((i) => requests[i]), more, false);
      const changed = more.length || decided.derived.length || decided.refresh;
      if (changed) decided.started((await recordEventsAndRefresh(tx, now, more, decided.derived)).row);
      again.forEach((i, n) => (claimed.claims[i] = decided.claims[n]));
      claimed.gatesOpened.push(...decided.gatesOpened);
    }
    // Each gate is announced on its own (one run.awaiting_approval per gate that opens), as when each job had its transaction.
    for (const taskId of claimed.gatesOpened) await announceWaitingGates(tx, runId, [taskId]);
    const settledResults = settled?.results ?? [];
    let s = 0;
    let c = 0;
    const answers = items.map((item) => ('settle' in item ? settledResults[s++] : claimed.claims[c++]));
    // The jobs whose work ends here are completed here, in one statement: an attempt that ended
    // (unless it is to run again: its job is failed, for pg-boss's backoff), and a job that starts
    // nothing (its run is not running, its gate opened, it is not the task's job). A run whose
    // record fails its check is failed after this transaction, and its job completed after that.
    items.forEach((item, i) => {
      const answer = answers[i];
      if ('settle' in item ? answer !== 'retry' : !(answer as Claim).start && (answer as Claim & { start: false }).integrity === undefined) finished.push('settle' in item ? item.settle.job : item.claim.job);
    });
    if (finished.length) await boss.complete(TASK_QUEUE, finished.map((job) => ({ id: job.id, retryCount: job.retryCount })), undefined, { db: jobsIn(handle, tx) });
    return answers;
  });
  // Marked once committed: the fetch loop completes only the jobs not completed here.
  for (const job of finished) completedJobs.add(job);
  return results;
}

/** Jobs completed in the transaction of their task's last transition. */
const completedJobs = new WeakSet<Job<TaskJobData>>();

const transitions = groupCommit(transitionsOf);
const claimTask = async (handle: DatabaseHandle, runId: string, claim: ClaimRequest) => (await transitions.submit(handle, runId, { claim })) as Claim;
const settleTask = async (handle: DatabaseHandle, runId: string, settle: Settlement) => (await transitions.submit(handle, runId, { settle })) as 'retry' | 'done' | 'stale';

/** After a 202, this job holds the attempt until the executor reports (or its time is up). */
async function awaitReport(handle: DatabaseHandle, context: RunContext, at: Attempt, task: PlannerTask, signal: AbortSignal): Promise<'reported' | 'timeout'> {
  const deadline = Date.now() + timeoutSeconds(task) * 1000;
  while (Date.now() < deadline && !signal.aborted) {
    await nextRunEvent(handle, at.runId, 1_000, signal);
    const [now] = await taskRunsOf(handle.db, at.runId, [at.taskId]);
    if (!now || now.generation !== at.generation || now.attempts !== at.attempt) return 'reported';
    if (now.state !== 'running') {
      // The report route recorded the result; what follows from it is queued here, under the run's lock.
      await handle.db.transaction(async (tx) => {
        await lockRunRow(tx, at.runId);
        await afterTaskSettled(handle, tx, at.runId, context.document.plan.planned_tasks, at.taskId, now.state as TaskState);
        await refreshRunState(tx, at.runId);
      });
      return 'reported';
    }
  }
  return 'timeout';
}

/**
 * Carries out one task job. Answers whether its job was completed in the transaction of its
 * last transition; otherwise the caller completes it (a throw: fails it, so pg-boss delivers it again).
 */
export async function runTaskJob(handle: DatabaseHandle, job: Job<TaskJobData>, worker: WorkerIdentity, options: RunnerOptions): Promise<boolean> {
  // Counted while it may still make a transition, so its run's batches may wait a moment for it.
  const done = transitions.underWay(handle, job.data.run_id);
  try {
    await runJob(handle, job, worker, options);
    return completedJobs.has(job);
  } finally {
    done();
  }
}

async function runJob(handle: DatabaseHandle, job: Job<TaskJobData>, worker: WorkerIdentity, options: RunnerOptions): Promise<void> {
  const { db } = handle;
  const { run_id: runId, task_id: taskId } = job.data;
  const generation = job.data.generation ?? 1;
  // Started before any transaction of this job: on PGlite starting it inside one would wait forever.
  await getJobQueue(handle);
  const claimed = await claimTask(handle, runId, { job, worker });
  if (!claimed.start) return claimed.integrity === undefined ? undefined : failRunForIntegrity(handle, runId, taskId, claimed.integrity);
  const { context, task } = claimed;
  const at: Attempt = { runId, taskId, generation, attempt: claimed.attempt, workerId: worker.id };
  const finish = async (outcome: Outcome) => {
    // A killed worker writes nothing more; the worker that takes its attempt over does.
    if (worker.killed.aborted) return forever();
    if ((await settleTask(handle, runId, { context, at, outcome, job })) === 'retry') throw new RetryLater(outcome.state === 'failed' ? outcome.error : 'retry');
  };

  if (!claimed.approved && claimed.unresolved.length) {
    return finish({ state: 'failed', error: `Its input could not be resolved: ${claimed.unresolved.slice(0, 5).join('; ')}`, kind: 'input', retryable: false });
  }
  // The convertor is part of the approved revision: it applies to an input approved at the gate too.
  let input = claimed.input;
  if (task.convertor_code) {
    const converted = await runConvertor(task.convertor_code, input);
    if (!converted.ok) return finish({ state: 'failed', error: `convertor_code: ${converted.message}`, kind: 'input', retryable: false });
    input = converted.output;
  }
  if (bytesOf(input) > MAX_INPUT_BYTES) return finish({ state: 'failed', error: `Its resolved input is over ${MAX_INPUT_BYTES / 1_000_000} MB; nothing was sent`, kind: 'input', retryable: false });
  const type = executionKind(task);
  if (!isExecutionType(type)) return finish({ state: 'failed', error: `Its execution type "${task.execution_type}" names no way to run it`, kind: 'input', retryable: false });

  const controller = new AbortController();
  const onJobAbort = () => controller.abort(job.signal.reason);
  const onKill = () => controller.abort(new DispatchError('The worker was killed'));
  job.signal.addEventListener('abort', onJobAbort);
  worker.killed.addEventListener('abort', onKill);
  const stopWatching = watchForStop(handle, runId, controller);
  try {
    const resource = approvedResource(context, task);
    const outcome = await dispatcherFor(type, resource)({
      runId,
      taskId,
      generation,
      attempt: at.attempt,
      idempotencyKey: idempotencyKey(runId, taskId, generation),
      kind: type,
      task,
      resource,
      input,
      signal: controller.signal,
      resultUrl: options.resultUrl(runId, taskId),
    });
    if (worker.killed.aborted) return forever();
    if (outcome.state === 'succeeded') {
      if (bytesOf(outcome.output) > MAX_OUTPUT_BYTES) return await finish({ state: 'failed', error: `Its output is over the ${MAX_OUTPUT_BYTES / 1_000_000} MB cap`, kind: 'call', retryable: false });
      return await finish({ state: 'succeeded', output: outcome.output });
    }
    // Accepted: the executor reports through the result route; this job holds the attempt
    // (and its lease) until then.
    await db.transaction(async (tx) => {
      await lockRunRow(tx, runId);
      await appendRunEvents(tx, runId, [{ kind: 'task_accepted', taskId, detail: { attempt: at.attempt, generation } }]);
    });
    if ((await awaitReport(handle, context, at, task, controller.signal)) === 'reported') return;
    if (controller.signal.aborted) throw controller.signal.reason instanceof Error ? controller.signal.reason : new DispatchError('The call was aborted');
    return await finish({ state: 'failed', error: `The executor accepted it but reported no result within ${timeoutSeconds(task)} s`, kind: 'call', retryable: true });
  } catch (error) {
    if (error instanceof RetryLater) throw error;
    if (worker.killed.aborted) return forever();
    const [run] = await db.select({ state: runs.state }).from(runs).where(eq(runs.id, runId));
    if (run && STOPPED_RUN_STATES.has(run.state)) return finish({ state: 'cancelled', error: `The run was ${run.state} during the call` });
    if (error instanceof DispatchError) return finish({ state: 'failed', error: error.message, kind: 'call', retryable: error.retryable });
    return finish({ state: 'failed', error: error instanceof Error ? error.message : String(error), kind: 'call', retryable: true });
  } finally {
    stopWatching();
    job.signal.removeEventListener('abort', onJobAbort);
    worker.killed.removeEventListener('abort', onKill);
  }
}
