import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { JobInsert } from 'pg-boss';
import type { PlannerTask } from '@/lib/plan';
import { STARTABLE_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import { maxAttempts, retryDelaySeconds, timeoutSeconds } from '@/lib/runs/task-policy';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { runs, taskRuns } from '../platform/db/schema';
import { DEAD_TASK_QUEUE, enqueueTaskJobs, jobsIn, startedJobQueue, TASK_QUEUE } from './job-queue';
import { appendRunEvents } from './run-events';
import { taskRunsOf, type TaskRunRow } from './run-records';

// Which tasks of a run are ready, and their jobs. Plangate's records decide readiness: a
// task gets a job once every dependency succeeded, in the same transaction that recorded the
// last of them, so the queue holds no dependency of its own to get wrong: a join waits for
// all its branches whatever was retried, any shape runs (one task, many independent ones,
// several roots), and a retried or continued gated task gets a job that opens its gate again.
// Every caller holds the run's row lock (lockRunRow), so two transactions never queue one task
// twice, and has started the job queue (getJobQueue) before opening its transaction.

/** What a task's job carries; a job whose generation or id is not the task's current one does nothing. */
export interface TaskJobData {
  run_id: string;
  task_id: string;
  generation: number;
  /** The job's own id, kept in its data so the dead letter pg-boss makes of it still names it. */
  job_id: string;
}

interface Shape {
  byId: Map<string, PlannerTask>;
  /** Each task's dependencies within the plan, without repeats. */
  dependencies: Map<string, string[]>;
  dependents: Map<string, string[]>;
}

const shapes = new WeakMap<readonly PlannerTask[], Shape>();

/** The dependency graph of an approved task list, computed once per list. */
export function shapeOf(tasks: readonly PlannerTask[]): Shape {
  let shape = shapes.get(tasks);
  if (!shape) {
    const byId = new Map(tasks.map((t) => [t.task_id, t]));
    const dependencies = new Map<string, string[]>();
    const dependents = new Map<string, string[]>(tasks.map((t) => [t.task_id, []]));
    for (const task of tasks) {
      const deps = [...new Set(task.dependencies ?? [])].filter((dep) => byId.has(dep) && dep !== task.task_id);
      dependencies.set(task.task_id, deps);
      for (const dep of deps) dependents.get(dep)!.push(task.task_id);
    }
    shape = { byId, dependencies, dependents };
    shapes.set(tasks, shape);
  }
  return shape;
}

/** Every task downstream of `roots` (not the roots themselves), nearest first. */
export function downstreamOf(tasks: readonly PlannerTask[], roots: Iterable<string>): string[] {
  const { dependents } = shapeOf(tasks);
  const seen = new Set(roots);
  const out: string[] = [];
  const queue = [...seen];
  while (queue.length) {
    for (const next of dependents.get(queue.shift()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      out.push(next);
      queue.push(next);
    }
  }
  return out;
}

/**
 * The job for one generation of `task`. pg-boss re-delivers it after a failed call (with
 * backoff) and after its worker died; it is given one delivery more than the attempts left,
 * so that Plangate, not the queue, says when they ran out and why.
 */
export function taskJob(runId: string, task: PlannerTask, generation: number, jobId: string, attemptsUsed: number): JobInsert {
  const delay = retryDelaySeconds(task);
  return {
    id: jobId,
    data: { run_id: runId, task_id: task.task_id, generation, job_id: jobId } satisfies TaskJobData,
    retryLimit: Math.max(0, maxAttempts(task) - attemptsUsed),
    retryDelay: delay,
    retryBackoff: delay > 0,
    retryDelayMax: 60,
    expireInSeconds: Math.ceil(timeoutSeconds(task)) + 120,
    deadLetter: DEAD_TASK_QUEUE,
  };
}

const WAITING: readonly TaskState[] = ['pending', 'retrying'];

async function mayStartTasks(tx: Database, runId: string): Promise<boolean> {
  const [run] = await tx.select({ state: runs.state }).from(runs).where(eq(runs.id, runId));
  return !!run && STARTABLE_RUN_STATES.has(run.state as RunState);
}

/** How many of each task's dependencies have not succeeded among `rows` (what task_runs.waiting_on counts). */
export function unmetDependencies(tasks: readonly PlannerTask[], succeeded: (taskId: string) => boolean): Map<string, number> {
  const { dependencies } = shapeOf(tasks);
  return new Map(tasks.map((t) => [t.task_id, dependencies.get(t.task_id)!.filter((dep) => !succeeded(dep)).length]));
}

/**
 * Queues a job for each of `candidates` that waits for one: pending or retrying, no job
 * queued, no dependency left unmet (waiting_on 0, so a fan-in of hundreds costs one row, not
 * hundreds, per parent). Without candidates every task is looked at and waiting_on is
 * recounted from its dependencies' states (a repair, for the sweep). Nothing while the run is
 * paused or finished (resuming queues what is ready then). Returns the tasks given a job.
 */
export async function scheduleReady(handle: DatabaseHandle, tx: Database, runId: string, tasks: readonly PlannerTask[], candidates?: Iterable<string>): Promise<string[]> {
  if (!(await mayStartTasks(tx, runId))) return [];
  const shape = shapeOf(tasks);
  let rows: TaskRunRow[];
  if (candidates) {
    const wanted = [...new Set(candidates)].filter((id) => shape.byId.has(id));
    rows = [];
    for (let i = 0; i < wanted.length; i += 1000) rows.push(...(await taskRunsOf(tx, runId, wanted.slice(i, i + 1000))));
  } else {
    // The recount takes every success into account: none is to be released again.
    await tx
      .update(taskRuns)
      .set({ released: true })
      .where(and(eq(taskRuns.runId, runId), eq(taskRuns.state, 'succeeded'), eq(taskRuns.released, false)));
    rows = await taskRunsOf(tx, runId);
    const states = new Map(rows.map((r) => [r.taskId, r.state]));
    const unmet = unmetDependencies(tasks, (id) => states.get(id) === 'succeeded');
    for (const row of rows) {
      const actual = unmet.get(row.taskId) ?? 0;
      if (row.waitingOn === actual) continue;
      await tx.update(taskRuns).set({ waitingOn: actual }).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, row.taskId)));
      row.waitingOn = actual;
    }
  }
  return queueReady(handle, tx, runId, tasks, rows);
}

/** Queues a job for each of `rows` that is ready; the caller checked the run may start tasks. */
async function queueReady(handle: DatabaseHandle, tx: Database, runId: string, tasks: readonly PlannerTask[], rows: TaskRunRow[]): Promise<string[]> {
  const shape = shapeOf(tasks);
  const ready = rows.filter((row) => WAITING.includes(row.state as TaskState) && !row.jobId && row.waitingOn === 0 && shape.byId.has(row.taskId));
  if (!ready.length) return [];
  const jobs = ready.map((row) => taskJob(runId, shape.byId.get(row.taskId)!, row.generation, randomUUID(), row.attempts));
  for (let i = 0; i < jobs.length; i += 1000) {
    const values = jobs.slice(i, i + 1000).map((job) => sql`(${(job.data as TaskJobData).task_id}, ${job.id})`);
    await tx.execute(sql`
      UPDATE task_runs SET job_id = v.job_id
      FROM (VALUES ${sql.join(values, sql`, `)}) AS v(task_id, job_id)
      WHERE task_runs.run_id = ${runId} AND task_runs.task_id = v.task_id`);
  }
  await enqueueTaskJobs(startedJobQueue(handle), jobs, jobsIn(handle, tx));
  return ready.map((row) => row.taskId);
}

/**
 * Tells a succeeded task's dependents, once: each counts one dependency fewer, and those
 * with none left are queued (unless the run is paused or over: resuming queues them).
 * Idempotent through the `released` flag, so the sweep may repeat it for a result recorded
 * where no worker followed up; `markedReleased` says the caller's own update set the flag.
 */
export async function releaseDependents(handle: DatabaseHandle, tx: Database, runId: string, tasks: readonly PlannerTask[], taskId: string, markedReleased = false): Promise<void> {
  if (!markedReleased) {
    const released = await tx
      .update(taskRuns)
      .set({ released: true })
      .where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId), eq(taskRuns.state, 'succeeded'), eq(taskRuns.released, false)))
      .returning({ taskId: taskRuns.taskId });
    if (!released.length) return;
  }
  await releaseReleased(handle, tx, runId, tasks, [taskId]);
}

/**
 * The dependents' side of releasing `succeeded` (tasks whose success the caller has just
 * marked released, in this transaction): one update per distinct count of them that a
 * dependent waited on (one update in all for the usual batch), then their jobs.
 */
export async function releaseReleased(handle: DatabaseHandle, tx: Database, runId: string, tasks: readonly PlannerTask[], succeeded: readonly string[]): Promise<void> {
  const { dependents } = shapeOf(tasks);
  const fewer = new Map<string, number>();
  for (const taskId of succeeded) for (const dependent of dependents.get(taskId) ?? []) fewer.set(dependent, (fewer.get(dependent) ?? 0) + 1);
  if (!fewer.size) return;
  const byCount = new Map<number, string[]>();
  for (const [dependent, n] of fewer) {
    const same = byCount.get(n);
    if (same) same.push(dependent);
    else byCount.set(n, [dependent]);
  }
  const rows: TaskRunRow[] = [];
  for (const [n, ids] of byCount) {
    for (let i = 0; i < ids.length; i += 1000) {
      rows.push(
        ...(await tx
          .update(taskRuns)
          .set({ waitingOn: sql`${taskRuns.waitingOn} - ${n}` })
          .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.taskId, ids.slice(i, i + 1000))))
          .returning()),
      );
    }
  }
  if (await mayStartTasks(tx, runId)) await queueReady(handle, tx, runId, tasks, rows);
}

/**
 * Blocks everything downstream of `failed` that has not run: it cannot, since something it
 * needs did not succeed. A retry of the failed task gives them a new generation.
 */
export async function blockDependents(tx: Database, runId: string, tasks: readonly PlannerTask[], failed: readonly string[]): Promise<string[]> {
  const downstream = downstreamOf(tasks, failed);
  const blocked: string[] = [];
  const error = `Blocked: ${failed.join(', ')} did not succeed`;
  for (let i = 0; i < downstream.length; i += 1000) {
    const rows = await tx
      .update(taskRuns)
      .set({ state: 'blocked', error, errorKind: null, jobId: null, workerId: null })
      .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.taskId, downstream.slice(i, i + 1000)), inArray(taskRuns.state, [...WAITING])))
      .returning({ taskId: taskRuns.taskId });
    blocked.push(...rows.map((r) => r.taskId));
  }
  await appendRunEvents(
    tx,
    runId,
    blocked.map((taskId) => ({ kind: 'task_blocked' as const, taskId, detail: { by: failed } })),
  );
  return blocked;
}

/** What follows a task's end, in the transaction that recorded it: its dependents get jobs, or are blocked. */
export async function afterTaskSettled(handle: DatabaseHandle, tx: Database, runId: string, tasks: readonly PlannerTask[], taskId: string, state: TaskState, markedReleased = false): Promise<void> {
  if (state === 'succeeded') await releaseDependents(handle, tx, runId, tasks, taskId, markedReleased);
  else if (state === 'failed') await blockDependents(tx, runId, tasks, [taskId]);
}

/** The jobs still queued (not yet started) for tasks of `runId` among `states`, for cancelling them. */
export async function queuedJobIds(tx: Database, runId: string, states: readonly TaskState[]): Promise<string[]> {
  const rows = await tx
    .select({ jobId: taskRuns.jobId })
    .from(taskRuns)
    .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.state, [...states]), sql`${taskRuns.jobId} IS NOT NULL`));
  return rows.map((r) => r.jobId!);
}

/** Cancels queued task jobs (a job already started is not touched: its worker checks the run). */
export async function cancelJobs(handle: DatabaseHandle, tx: Database, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const boss = startedJobQueue(handle);
  for (let i = 0; i < ids.length; i += 1000) await boss.cancel(TASK_QUEUE, ids.slice(i, i + 1000), { db: jobsIn(handle, tx) });
}
