import 'server-only';
import { eq } from 'drizzle-orm';
import type { Job } from 'pg-boss';
import { executionKind, isExecutionType } from '@/lib/plan';
import { referencedTasks, resolveTaskInput } from '@/lib/runs/resolve-input';
import { FINISHED_TASK_STATES, idempotencyKey, type TaskState } from '@/lib/runs/run-states';
import { timeoutSeconds } from '@/lib/runs/task-policy';
import { runConvertor } from '@/lib/simulate/sandbox/run-convertor';
import type { DatabaseHandle } from '../db/client';
import { runs } from '../db/schema';
import { dispatcherFor } from './dispatch/dispatch';
import { DispatchError, MAX_OUTPUT_BYTES } from './dispatch/dispatch-types';
import { nextRunEvent } from './run-events';
import { approvedResource, loadRunContext, recordTaskChange, taskRunsOf, type RunContext, type TaskRunRow } from './run-records';
import type { TaskJobData } from './start-run';

// One job of a run: a gate's notice, or one attempt of a task. Plangate's own records
// (task_runs) are the truth about what happened; pg-boss only decides when a job runs and
// runs it again after a crash, so every step here first checks what is already recorded.

/** Thrown to have pg-boss run the job again, after its backoff. */
class RetryLater extends Error {}

/** A resolved input larger than this is refused rather than sent. */
const MAX_INPUT_BYTES = 2_000_000;

export interface RunnerOptions {
  /** The URL executors post 202-accepted results to: `${origin}/api/runs/{run}/tasks/{task}/result`. */
  resultUrl(runId: string, taskId: string): string;
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

/** The calls in flight in this process, by run: a cancel made here aborts them at once. */
const inFlight = new Map<string, Set<AbortController>>();

/** Aborts this process's calls of `runId` (the run was cancelled here). */
export function abortRunCalls(runId: string): void {
  for (const controller of inFlight.get(runId) ?? []) controller.abort(new DispatchError('The run was cancelled', false));
}

/**
 * Aborts `controller` when the run is cancelled: at once when the cancel is made in this
 * process, else within a second (another instance cancelled it; checked by polling, since
 * waking on every event of a busy run would cost a query per event per call in flight).
 */
function watchForCancel(handle: DatabaseHandle, runId: string, controller: AbortController): () => void {
  const calls = inFlight.get(runId) ?? new Set<AbortController>();
  inFlight.set(runId, calls.add(controller));
  const timer = setInterval(() => {
    void handle.db
      .select({ state: runs.state })
      .from(runs)
      .where(eq(runs.id, runId))
      .then(([row]) => row?.state === 'cancelled' && controller.abort(new DispatchError('The run was cancelled', false)))
      .catch(() => undefined);
  }, 1_000);
  return () => {
    clearInterval(timer);
    calls.delete(controller);
    if (!calls.size) inFlight.delete(runId);
  };
}

export async function runTaskJob(handle: DatabaseHandle, job: Job<TaskJobData>, options: RunnerOptions): Promise<void> {
  const { db } = handle;
  const { run_id: runId, task_id: taskId, kind, retry_limit: retryLimitOf } = job.data;
  const context = await loadRunContext(db, runId);
  const task = context.tasks.get(taskId);
  if (!task) throw new DispatchError(`Task ${taskId} is not in revision ${context.run.revision}`, false);
  // This task's record and those its input may read, not the whole run.
  const records = await taskRunsOf(db, runId, [taskId, ...referencedTasks(task, context.taskIds, outputPaths(context))]);
  const mine = records.find((r) => r.taskId === taskId);
  if (!mine) return;
  const state = mine.state as TaskState;

  if (context.run.state === 'cancelled') {
    if (!FINISHED_TASK_STATES.has(state)) await recordTaskChange(db, runId, [{ taskId, patch: { state: 'cancelled', finishedAt: new Date() }, event: { kind: 'task_cancelled' } }]);
    return;
  }
  // Already settled (a job run again after a crash, a gate rejected): nothing to do. A retry
  // asked for by a person sets the task back to pending before it enqueues a new job.
  if (FINISHED_TASK_STATES.has(state)) return;

  // A dependency that did not succeed blocks this task; pg-boss released it only in order.
  const byId = new Map(records.map((r) => [r.taskId, r]));
  const failedDeps = (task.dependencies ?? []).filter((dep) => byId.has(dep) && byId.get(dep)!.state !== 'succeeded');
  if (failedDeps.length) {
    await recordTaskChange(db, runId, [{ taskId, patch: { state: 'blocked', error: `Blocked: ${failedDeps.join(', ')} did not succeed` }, event: { kind: 'task_blocked', detail: { by: failedDeps } } }]);
    return;
  }

  const resolved = resolveTaskInput(task, recordedOutputs(context, records));
  if (kind === 'gate') {
    if (state === 'awaiting_approval') return;
    await recordTaskChange(db, runId, [{ taskId, patch: { state: 'awaiting_approval', input: resolved.input }, event: { kind: 'gate_waiting', detail: { unresolved: resolved.unresolved } } }]);
    return;
  }

  const attempt = job.retryCount + 1;
  const finalAttempt = job.retryCount >= retryLimitOf;
  const fail = async (message: string, retryable: boolean) => {
    if (retryable && !finalAttempt) {
      await recordTaskChange(db, runId, [{ taskId, patch: { state: 'retrying', error: message }, event: { kind: 'task_retrying', detail: { attempt, error: message } } }]);
      throw new RetryLater(message);
    }
    await recordTaskChange(db, runId, [{ taskId, patch: { state: 'failed', error: message, finishedAt: new Date() }, event: { kind: 'task_failed', detail: { attempt, error: message } } }]);
  };

  // Starting changes no run state (the run is running already): no refresh, one transaction less.
  await recordTaskChange(
    db,
    runId,
    [{ taskId, patch: { state: 'running', attempts: attempt, startedAt: mine.startedAt ?? new Date(), input: resolved.input, error: null }, event: { kind: 'task_started', detail: { attempt } } }],
    { refresh: false },
  );
  if (resolved.unresolved.length) return fail(`Its input could not be resolved: ${resolved.unresolved.slice(0, 5).join('; ')}`, false);

  let input = resolved.input;
  if (task.convertor_code) {
    const converted = await runConvertor(task.convertor_code, input);
    if (!converted.ok) return fail(`convertor_code: ${converted.message}`, false);
    input = converted.output;
  }
  if (bytesOf(input) > MAX_INPUT_BYTES) return fail(`Its resolved input is over ${MAX_INPUT_BYTES / 1_000_000} MB; nothing was sent`, false);

  const type = executionKind(task);
  if (!isExecutionType(type)) return fail(`Its execution type "${task.execution_type}" names no way to run it`, false);
  const controller = new AbortController();
  const onJobAbort = () => controller.abort(job.signal.reason);
  job.signal.addEventListener('abort', onJobAbort);
  const stopWatching = watchForCancel(handle, runId, controller);
  try {
    const dispatch = dispatcherFor(type, approvedResource(context, task));
    const outcome = await dispatch({
      runId,
      taskId,
      attempt,
      idempotencyKey: idempotencyKey(runId, taskId, attempt),
      kind: type,
      task,
      resource: approvedResource(context, task),
      input,
      signal: controller.signal,
      resultUrl: options.resultUrl(runId, taskId),
    });
    if (outcome.state === 'succeeded') {
      if (bytesOf(outcome.output) > MAX_OUTPUT_BYTES) return fail(`Its output is over the ${MAX_OUTPUT_BYTES / 1_000_000} MB cap`, false);
      await recordTaskChange(db, runId, [{ taskId, patch: { state: 'succeeded', output: outcome.output, finishedAt: new Date(), error: null }, event: { kind: 'task_succeeded', detail: { attempt } } }]);
      return;
    }
    // Accepted: the executor reports through the result route; this job holds the task's
    // place (and its dependents' order) until then.
    await recordTaskChange(db, runId, [{ taskId, patch: {}, event: { kind: 'task_accepted', detail: { attempt } } }]);
    const deadline = Date.now() + timeoutSeconds(task) * 1000;
    while (Date.now() < deadline && !controller.signal.aborted) {
      await nextRunEvent(handle, runId, 1_000, controller.signal);
      const [now] = await taskRunsOf(db, runId, [taskId]);
      if (now && now.state !== 'running') return;
    }
    if (controller.signal.aborted) throw controller.signal.reason instanceof Error ? controller.signal.reason : new DispatchError('The call was aborted');
    return fail(`The executor accepted it but reported no result within ${timeoutSeconds(task)} s`, true);
  } catch (error) {
    const cancelled = controller.signal.aborted && (await loadRunContext(db, runId)).run.state === 'cancelled';
    if (cancelled) {
      await recordTaskChange(db, runId, [{ taskId, patch: { state: 'cancelled', finishedAt: new Date(), error: 'The run was cancelled during the call' }, event: { kind: 'task_cancelled' } }]);
      return;
    }
    if (error instanceof RetryLater) throw error;
    if (error instanceof DispatchError) return fail(error.message, error.retryable);
    return fail(error instanceof Error ? error.message : String(error), true);
  } finally {
    stopWatching();
    job.signal.removeEventListener('abort', onJobAbort);
  }
}
