import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Job } from 'pg-boss';
import { executionKind, isExecutionType, type PlannerTask } from '@/lib/plan';
import { referencedTasks, resolveTaskInput } from '@/lib/runs/resolve-input';
import { FINISHED_TASK_STATES, idempotencyKey, STARTABLE_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import { maxAttempts, requiresApproval, timeoutSeconds } from '@/lib/runs/task-policy';
import { runConvertor } from '@/lib/simulate/sandbox/run-convertor';
import type { DatabaseHandle } from '../platform/db/client';
import { gateDecisions, runs, taskRuns } from '../platform/db/schema';
import { dispatcherFor } from './dispatch/dispatch';
import { DispatchError, MAX_OUTPUT_BYTES } from './dispatch/dispatch-types';
import { getJobQueue } from './job-queue';
import { announceWaitingGates } from './gate-notice';
import { STOPPED_RUN_STATES, watchForStop } from './run-calls';
import { failRunForIntegrity, isIntegrityError } from './run-integrity';
import { appendRunEvents, nextRunEvent, type RunEventInput } from './run-events';
import { approvedResource, loadRunContext, lockRunRow, refreshRunState, taskRunsOf, type RunContext, type TaskRunRow } from './run-records';
import { afterTaskSettled, type TaskJobData } from './run-scheduler';

// One job of a task: it opens the task's gate, or starts one attempt of it. Plangate's
// records (task_runs) are the truth; pg-boss only decides when a job runs and runs it again
// after a failed call or a dead worker. The switch to `running` is one conditional update,
// in a transaction holding the run's row lock: the run must be running, the task waiting
// in this generation with this job, and a gated task approved for this generation. If it
// does not match, no call is made. Every later write is fenced on the attempt it started
// (generation, attempt number, worker), so a worker presumed dead cannot overwrite what the
// worker that took over recorded.

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

/**
 * Records how an attempt ended, if it is still the task's attempt in flight: a retryable
 * failure with attempts left becomes `retrying` (the caller has pg-boss deliver the job
 * again). Returns 'retry', 'done', or 'stale' (someone else's record stands).
 */
async function settle(handle: DatabaseHandle, context: RunContext, at: Attempt, outcome: Outcome): Promise<'retry' | 'done' | 'stale'> {
  const task = context.tasks.get(at.taskId)!;
  return handle.db.transaction(async (tx) => {
    await lockRunRow(tx, at.runId);
    const retry = outcome.state === 'failed' && outcome.retryable && at.attempt < maxAttempts(task);
    const state: TaskState = retry ? 'retrying' : outcome.state;
    const patch: Partial<TaskRunRow> =
      outcome.state === 'succeeded'
        ? { state, output: outcome.output, error: null, errorKind: null, finishedAt: new Date(), released: true }
        : outcome.state === 'cancelled'
          ? { state, error: outcome.error, finishedAt: new Date() }
          : { state, error: outcome.error, errorKind: retry ? null : outcome.kind, finishedAt: retry ? null : new Date() };
    const settled = await tx
      .update(taskRuns)
      .set({ ...patch, workerId: null, jobId: retry ? undefined : null })
      .where(
        and(
          eq(taskRuns.runId, at.runId),
          eq(taskRuns.taskId, at.taskId),
          eq(taskRuns.generation, at.generation),
          eq(taskRuns.attempts, at.attempt),
          eq(taskRuns.workerId, at.workerId),
          eq(taskRuns.state, 'running'),
        ),
      )
      .returning({ taskId: taskRuns.taskId });
    if (!settled.length) return 'stale';
    const detail = { attempt: at.attempt, generation: at.generation };
    const event: RunEventInput =
      outcome.state === 'succeeded'
        ? { kind: 'task_succeeded', taskId: at.taskId, detail }
        : outcome.state === 'cancelled'
          ? { kind: 'task_cancelled', taskId: at.taskId, detail: { ...detail, error: outcome.error } }
          : { kind: retry ? 'task_retrying' : 'task_failed', taskId: at.taskId, detail: { ...detail, error: outcome.error, error_kind: outcome.kind } };
    await appendRunEvents(tx, at.runId, [event]);
    // A success is released to its dependents here, in the update that recorded it.
    await afterTaskSettled(handle, tx, at.runId, context.document.plan.planned_tasks, at.taskId, state, true);
    await refreshRunState(tx, at.runId);
    return retry ? 'retry' : 'done';
  });
}

/** `approved`: the input a person approved at the task's gate (maybe edited there), which replaces the resolved one. */
type Claim = { start: true; attempt: number; approved?: { input: unknown } } | { start: false };

/**
 * Decides, under the run's row lock, what this job does: nothing (it is not the task's
 * current job, the run stopped), hold (the run is paused: resuming queues it again), open
 * the gate (a gated task with no approve for this generation), fail (its attempts were used
 * up by workers that died mid-call), or start an attempt, recorded before any call is made.
 */
async function claim(handle: DatabaseHandle, context: RunContext, task: PlannerTask, job: Job<TaskJobData>, worker: WorkerIdentity, input: unknown, unresolved: string[]): Promise<Claim> {
  const { run_id: runId, task_id: taskId } = job.data;
  const generation = job.data.generation ?? 1;
  const tasks = context.document.plan.planned_tasks;
  return handle.db.transaction(async (tx): Promise<Claim> => {
    const run = await lockRunRow(tx, runId);
    const [row] = await tx
      .select()
      .from(taskRuns)
      .where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId)))
      .for('update');
    if (!row || row.generation !== generation || row.jobId !== job.id) return { start: false };
    const state = row.state as TaskState;
    if (FINISHED_TASK_STATES.has(state) || state === 'awaiting_approval') return { start: false };
    const key = and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId));
    const runState = run.state as RunState;
    // Running, yet pg-boss gave this job to us: the worker of that attempt stopped (its job's heartbeat or time ran out).
    const lost = state === 'running' ? `Its worker stopped during attempt ${row.attempts}` : null;

    if (runState === 'cancelled' || runState === 'failed') {
      await tx.update(taskRuns).set({ state: 'cancelled', jobId: null, workerId: null, finishedAt: new Date(), error: `Not run: the run was ${runState}` }).where(key);
      await appendRunEvents(tx, runId, [{ kind: 'task_cancelled', taskId }]);
      await refreshRunState(tx, runId);
      return { start: false };
    }
    if (!STARTABLE_RUN_STATES.has(runState)) {
      // Paused: held without a job; resuming queues a new one. An attempt a dead worker left
      // running waits as a retry.
      await tx
        .update(taskRuns)
        .set(lost ? { jobId: null, workerId: null, state: 'retrying', error: lost } : { jobId: null })
        .where(key);
      if (lost) await appendRunEvents(tx, runId, [{ kind: 'task_retrying', taskId, detail: { attempt: row.attempts, generation, error: lost, lost: true } }]);
      return { start: false };
    }

    const gated = requiresApproval(task);
    let approved: { input: unknown } | undefined;
    if (gated) {
      const [decision] = await tx
        .select()
        .from(gateDecisions)
        .where(and(eq(gateDecisions.runId, runId), eq(gateDecisions.taskId, taskId), eq(gateDecisions.generation, generation)));
      if (!decision) {
        // Its dependencies are done: a person decides now, for this generation.
        await tx.update(taskRuns).set({ state: 'awaiting_approval', input, jobId: null, workerId: null }).where(key);
        await appendRunEvents(tx, runId, [{ kind: 'gate_waiting', taskId, detail: { generation, unresolved } }]);
        await refreshRunState(tx, runId);
        await announceWaitingGates(tx, runId, [taskId]);
        return { start: false };
      }
      if (decision.decision !== 'approve') return { start: false };
      // Decisions recorded before gates kept their input carry no hash: those run on the resolved input.
      if (decision.inputHash) approved = { input: decision.input ?? null };
    }

    if (row.attempts >= maxAttempts(task)) {
      const error = `${lost ?? `Attempt ${row.attempts} did not finish`}, and it was its last (${maxAttempts(task)} allowed)`;
      await tx.update(taskRuns).set({ state: 'failed', error, errorKind: 'lost', jobId: null, workerId: null, finishedAt: new Date() }).where(key);
      await appendRunEvents(tx, runId, [{ kind: 'task_failed', taskId, detail: { attempt: row.attempts, generation, error, error_kind: 'lost' } }]);
      await afterTaskSettled(handle, tx, runId, tasks, taskId, 'failed');
      await refreshRunState(tx, runId);
      return { start: false };
    }

    // The switch itself repeats every condition, so it cannot overwrite a state it did not see.
    const attempt = row.attempts + 1;
    const started = await tx
      .update(taskRuns)
      .set({ state: 'running', attempts: attempt, workerId: worker.id, startedAt: row.startedAt ?? new Date(), input: approved ? approved.input : input, error: null, errorKind: null })
      .where(
        and(
          key,
          eq(taskRuns.generation, generation),
          eq(taskRuns.jobId, job.id),
          inArray(taskRuns.state, ['pending', 'retrying', 'running']),
          sql`EXISTS (SELECT 1 FROM runs WHERE runs.id = ${runId} AND runs.state IN ('running', 'awaiting_approval', 'needs_replan'))`,
          gated
            ? sql`EXISTS (SELECT 1 FROM gate_decisions d WHERE d.run_id = ${runId} AND d.task_id = ${taskId} AND d.generation = ${generation} AND d.decision = 'approve')`
            : sql`TRUE`,
        ),
      )
      .returning({ attempts: taskRuns.attempts });
    if (!started.length) return { start: false };
    const events: RunEventInput[] = [];
    if (lost) events.push({ kind: 'task_retrying', taskId, detail: { attempt: row.attempts, generation, error: lost, lost: true } });
    events.push({ kind: 'task_started', taskId, detail: { attempt, generation, worker: worker.id } });
    await appendRunEvents(tx, runId, events);
    // Starting changes no run state (it is running already): no refresh.
    return { start: true, attempt, approved };
  });
}

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

export async function runTaskJob(handle: DatabaseHandle, job: Job<TaskJobData>, worker: WorkerIdentity, options: RunnerOptions): Promise<void> {
  const { db } = handle;
  const { run_id: runId, task_id: taskId } = job.data;
  const generation = job.data.generation ?? 1;
  // Started before any transaction of this job: on PGlite starting it inside one would wait forever.
  await getJobQueue(handle);
  let context: RunContext;
  try {
    context = await loadRunContext(db, runId);
  } catch (error) {
    // The approved revision no longer hashes as approved: nothing more of this run runs.
    if (isIntegrityError(error)) return failRunForIntegrity(handle, runId, taskId, (error as Error).message);
    throw error;
  }
  const task = context.tasks.get(taskId);
  if (!task) return failRunForIntegrity(handle, runId, taskId, `Run ${runId}: its job names task ${taskId}, which revision ${context.run.revision} does not have`);

  // This task's record and those its input may read, not the whole run.
  const records = await taskRunsOf(db, runId, [taskId, ...referencedTasks(task, context.taskIds, outputPaths(context))]);
  const mine = records.find((r) => r.taskId === taskId);
  if (!mine || mine.generation !== generation || mine.jobId !== job.id || FINISHED_TASK_STATES.has(mine.state as TaskState)) return;
  const resolved = resolveTaskInput(task, recordedOutputs(context, records));

  const claimed = await claim(handle, context, task, job, worker, resolved.input, resolved.unresolved);
  if (!claimed.start) return;
  const at: Attempt = { runId, taskId, generation, attempt: claimed.attempt, workerId: worker.id };
  const finish = async (outcome: Outcome) => {
    // A killed worker writes nothing more; the worker that takes its attempt over does.
    if (worker.killed.aborted) return forever();
    if ((await settle(handle, context, at, outcome)) === 'retry') throw new RetryLater(outcome.state === 'failed' ? outcome.error : 'retry');
  };

  if (!claimed.approved && resolved.unresolved.length) {
    return finish({ state: 'failed', error: `Its input could not be resolved: ${resolved.unresolved.slice(0, 5).join('; ')}`, kind: 'input', retryable: false });
  }
  // The convertor is part of the approved revision: it applies to an input approved at the gate too.
  let input = claimed.approved ? claimed.approved.input : resolved.input;
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
