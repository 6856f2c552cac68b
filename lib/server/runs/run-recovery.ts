import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PlannerTask } from '@/lib/plan';
import { FINISHED_TASK_STATES, STARTABLE_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import { maxAttempts } from '@/lib/runs/task-policy';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { taskRuns } from '../platform/db/schema';
import { getJobQueue, jobFailureMessage, jobsIn, startedJobQueue, TASK_QUEUE } from './job-queue';
import { STOPPED_RUN_STATES } from './run-calls';
import { appendRunEvents } from './run-events';
import { failRunForIntegrity, isIntegrityError } from './run-integrity';
import { loadRunContext, lockRunRow, refreshRunState, type TaskRunRow } from './run-records';
import { afterTaskSettled, blockDependents, scheduleReady, type TaskJobData } from './run-scheduler';

// Every run finishes: what the run workers do about jobs that went wrong outside a task's
// own handling. Three paths, each one idempotent transaction per task under the run's lock:
// - a dead letter: pg-boss failed a task job on its own (its deliveries used up by crashes,
//   its time ran out, its handler threw before settling): the task fails with kind `lost`;
// - a dead worker: an attempt whose worker's heartbeat stopped is taken over within seconds
//   (pg-boss's own job heartbeat is 10 s at least): the job is failed back to the queue, to
//   be delivered again at once with the same idempotency key, or the task fails when it has
//   no delivery left;
// - a quiet run: a periodic sweep of runs with no event for a while finds tasks whose job
//   is gone and ready tasks without a job, and settles or queues them.

/** The run's approved task list, or null when its record fails the integrity check (the run is then failed). */
async function approvedTasks(handle: DatabaseHandle, tx: Database, runId: string, taskId: string | null): Promise<readonly PlannerTask[] | null> {
  try {
    return (await loadRunContext(tx, runId)).document.plan.planned_tasks;
  } catch (error) {
    if (!isIntegrityError(error)) throw error;
    queueMicrotask(() => void failRunForIntegrity(handle, runId, taskId, error.message).catch(() => undefined));
    return null;
  }
}

async function failedJobReason(handle: DatabaseHandle, tx: Database, jobId: string): Promise<string> {
  const boss = startedJobQueue(handle);
  const job = await boss.getJobById(TASK_QUEUE, jobId, { db: jobsIn(handle, tx) });
  if (!job) return 'its job is gone from the queue';
  const message = jobFailureMessage(job.output);
  return `its job ${job.state} in the queue after ${job.retryCount + 1} deliver${job.retryCount ? 'ies' : 'y'}${message ? ` (${message.slice(0, 300)})` : ''}`;
}

/**
 * Settles a task whose current job pg-boss failed (or lost): failed with kind `lost`, its
 * dependents blocked; cancelled when the run was stopped. Nothing when the job is no longer
 * the task's (a retry or a takeover moved on) or the task already ended.
 */
export async function reconcileLostJob(handle: DatabaseHandle, data: TaskJobData, why?: string): Promise<boolean> {
  const generation = data.generation ?? 1;
  await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, data.run_id);
    const [row] = await tx
      .select()
      .from(taskRuns)
      .where(and(eq(taskRuns.runId, data.run_id), eq(taskRuns.taskId, data.task_id)))
      .for('update');
    if (!row || row.generation !== generation || row.jobId !== data.job_id || FINISHED_TASK_STATES.has(row.state as TaskState)) return false;
    const key = and(eq(taskRuns.runId, data.run_id), eq(taskRuns.taskId, data.task_id));
    if (STOPPED_RUN_STATES.has(run.state)) {
      await tx.update(taskRuns).set({ state: 'cancelled', jobId: null, workerId: null, finishedAt: new Date(), error: `Not run: the run was ${run.state}` }).where(key);
      await appendRunEvents(tx, data.run_id, [{ kind: 'task_cancelled', taskId: data.task_id }]);
      await refreshRunState(tx, data.run_id);
      return true;
    }
    const tasks = await approvedTasks(handle, tx, data.run_id, data.task_id);
    if (!tasks) return false;
    const reason = why ?? (await failedJobReason(handle, tx, data.job_id));
    const error = `It did not finish: ${reason}${row.attempts ? `; ${row.attempts} attempt${row.attempts === 1 ? '' : 's'} started` : ''}`;
    await tx.update(taskRuns).set({ state: 'failed', error, errorKind: 'lost', jobId: null, workerId: null, finishedAt: new Date() }).where(key);
    await appendRunEvents(tx, data.run_id, [{ kind: 'task_failed', taskId: data.task_id, detail: { attempt: row.attempts, generation, error, error_kind: 'lost' } }]);
    await afterTaskSettled(handle, tx, data.run_id, tasks, data.task_id, 'failed');
    await refreshRunState(tx, data.run_id);
    return true;
  });
}

type Lost = Pick<TaskRunRow, 'runId' | 'taskId' | 'generation' | 'attempts' | 'jobId' | 'workerId'>;

/**
 * Takes over one attempt whose worker stopped: its job goes back to the queue for another
 * worker at once (the same generation, so the same idempotency key), or, with no delivery
 * left, the task fails.
 */
async function takeOver(handle: DatabaseHandle, lost: Lost): Promise<boolean> {
  const boss = await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, lost.runId);
    const [row] = await tx
      .select()
      .from(taskRuns)
      .where(and(eq(taskRuns.runId, lost.runId), eq(taskRuns.taskId, lost.taskId)))
      .for('update');
    // Someone settled it or took it over meanwhile.
    if (!row || row.state !== 'running' || row.generation !== lost.generation || row.attempts !== lost.attempts || row.jobId !== lost.jobId || row.workerId !== lost.workerId) return false;
    const db = jobsIn(handle, tx);
    const key = and(eq(taskRuns.runId, lost.runId), eq(taskRuns.taskId, lost.taskId));
    const stopped = `Its worker stopped during attempt ${row.attempts}`;
    const tasks = await approvedTasks(handle, tx, lost.runId, lost.taskId);
    if (!tasks) return false;
    const task = tasks.find((t) => t.task_id === lost.taskId);
    let job = row.jobId ? await boss.getJobById(TASK_QUEUE, row.jobId, { db }) : null;
    const queued = () => !!job && (job.state === 'retry' || job.state === 'created');
    const last = !task || row.attempts >= maxAttempts(task);
    if (job?.state === 'active') {
      // The dead worker's claim on the job ends here; its late writes, if it was only slow, are fenced off.
      if (last || STOPPED_RUN_STATES.has(run.state)) await boss.cancel(TASK_QUEUE, job.id, { db });
      else await boss.fail(TASK_QUEUE, job.id, { message: 'Plangate: the worker holding it stopped' }, { db });
      job = await boss.getJobById(TASK_QUEUE, job.id, { db });
    }
    if (STOPPED_RUN_STATES.has(run.state)) {
      if (queued()) await boss.cancel(TASK_QUEUE, job!.id, { db });
      await tx.update(taskRuns).set({ state: 'cancelled', jobId: null, workerId: null, finishedAt: new Date(), error: `${stopped}; the run was ${run.state}` }).where(key);
      await appendRunEvents(tx, lost.runId, [{ kind: 'task_cancelled', taskId: lost.taskId, detail: { attempt: row.attempts, lost: true } }]);
      await refreshRunState(tx, lost.runId);
      return true;
    }
    if (!last && queued()) {
      // Delivered again now, not after the backoff meant for a failed call.
      await boss.update(TASK_QUEUE, undefined, { id: job!.id, startAfter: 0, db });
      await tx.update(taskRuns).set({ state: 'retrying', workerId: null, error: `${stopped}; another worker takes it over` }).where(key);
      await appendRunEvents(tx, lost.runId, [{ kind: 'task_retrying', taskId: lost.taskId, detail: { attempt: row.attempts, generation: row.generation, error: stopped, lost: true } }]);
      return true;
    }
    if (queued()) await boss.cancel(TASK_QUEUE, job!.id, { db });
    const error = last && task ? `${stopped}, its last (${maxAttempts(task)} allowed)` : `${stopped}, and its job has no delivery left`;
    await tx.update(taskRuns).set({ state: 'failed', error, errorKind: 'lost', jobId: null, workerId: null, finishedAt: new Date() }).where(key);
    await appendRunEvents(tx, lost.runId, [{ kind: 'task_failed', taskId: lost.taskId, detail: { attempt: row.attempts, generation: row.generation, error, error_kind: 'lost' } }]);
    await afterTaskSettled(handle, tx, lost.runId, tasks, lost.taskId, 'failed');
    await refreshRunState(tx, lost.runId);
    return true;
  });
}

/**
 * Takes over the attempts held by workers whose heartbeat is older than `leaseSeconds` (or
 * that are gone). A worker never takes over its own attempts: it knows it is alive, even
 * when a long transaction held its heartbeat back. Returns how many it took over.
 */
export async function takeOverLostAttempts(handle: DatabaseHandle, me: string, leaseSeconds: number): Promise<number> {
  const result = await handle.db.execute(sql`
    SELECT t.run_id AS "runId", t.task_id AS "taskId", t.generation, t.attempts, t.job_id AS "jobId", t.worker_id AS "workerId"
    FROM task_runs t LEFT JOIN run_workers w ON w.id = t.worker_id
    WHERE t.state = 'running' AND t.worker_id IS DISTINCT FROM ${me}
      AND (w.id IS NULL OR w.heartbeat_at < clock_timestamp() - make_interval(secs => ${leaseSeconds}))
    LIMIT 100`);
  let taken = 0;
  for (const lost of (result as unknown as { rows: Lost[] }).rows) if (await takeOver(handle, lost)) taken++;
  return taken;
}

const IN_FLIGHT: TaskState[] = ['pending', 'retrying', 'running'];

/**
 * Runs that have recorded nothing for `quietSeconds` while not finished: a task whose job
 * pg-boss no longer holds (completed, cancelled or failed without its task being settled, or
 * deleted) is reconciled, and ready tasks without a job are queued. Returns what it changed.
 */
export async function sweepQuietRuns(handle: DatabaseHandle, quietSeconds: number): Promise<{ reconciled: number; queued: number }> {
  const boss = await getJobQueue(handle);
  const quiet = await handle.db.execute(sql`
    SELECT r.id, r.state FROM runs r
    WHERE r.state IN ('running', 'awaiting_approval', 'needs_replan', 'paused')
      AND COALESCE((SELECT e.at FROM run_events e WHERE e.run_id = r.id ORDER BY e.seq DESC LIMIT 1), r.created_at)
        < clock_timestamp() - make_interval(secs => ${quietSeconds})
    ORDER BY r.updated_at LIMIT 20`);
  let reconciled = 0;
  let queued = 0;
  for (const run of (quiet as unknown as { rows: { id: string; state: RunState }[] }).rows) {
    const rows = await handle.db
      .select()
      .from(taskRuns)
      .where(and(eq(taskRuns.runId, run.id), inArray(taskRuns.state, IN_FLIGHT), sql`${taskRuns.jobId} IS NOT NULL`))
      .limit(200);
    for (const row of rows) {
      const job = await boss.getJobById(TASK_QUEUE, row.jobId!);
      if (job && !['completed', 'cancelled', 'failed'].includes(job.state)) continue;
      const data: TaskJobData = { run_id: run.id, task_id: row.taskId, generation: row.generation, job_id: row.jobId! };
      if (await reconcileLostJob(handle, data)) reconciled++;
    }
    if (!STARTABLE_RUN_STATES.has(run.state)) continue;
    let context;
    try {
      context = await loadRunContext(handle.db, run.id);
    } catch (error) {
      if (isIntegrityError(error)) await failRunForIntegrity(handle, run.id, null, error.message);
      continue;
    }
    const tasks = context.document.plan.planned_tasks;
    queued += await handle.db.transaction(async (tx) => {
      await lockRunRow(tx, run.id);
      // What a settlement made elsewhere (a reported result whose worker has gone) did not follow up.
      const failed = await tx
        .select({ taskId: taskRuns.taskId })
        .from(taskRuns)
        .where(and(eq(taskRuns.runId, run.id), eq(taskRuns.state, 'failed')));
      if (failed.length && (await blockDependents(tx, run.id, tasks, failed.map((r) => r.taskId))).length) await refreshRunState(tx, run.id);
      return (await scheduleReady(handle, tx, run.id, tasks)).length;
    });
  }
  return { reconciled, queued };
}
