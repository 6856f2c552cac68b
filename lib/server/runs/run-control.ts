import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { FINISHED_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import { requiresApproval } from '@/lib/runs/task-policy';
import { appendAudit } from '../audit/audit-log';
import type { Principal } from '../auth/principal';
import type { DatabaseHandle } from '../db/client';
import { runs, taskRuns } from '../db/schema';
import { AppError, notFound } from '../errors';
import { DECISION_QUEUE, enqueue, getJobQueue, jobsIn, TASK_QUEUE } from './job-queue';
import { appendRunEvent, appendRunEvents } from './run-events';
import { loadRunContext, lockRunRow, refreshRunState, taskRunsOf, updateTaskRun } from './run-records';
import type { FlowJob } from 'pg-boss';
import { taskJob } from './start-run';
import { assertMayDecideGate } from './gate-deciders';
import { abortRunCalls } from './task-runner';

// What people do to a run while it goes: cancel, pause and resume it, retry a failed task,
// decide at a gate, and (for executors that answered 202) report a task's result. Each is
// one transaction on the run row, recorded as a run event; decisions also in the audit chain.

function refuse(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('conflict', 409, message, undefined, details);
}


// Inside the caller's transaction: on PGlite, a query outside it would wait for it forever.
async function queuedJobIds(handle: DatabaseHandle, tx: DatabaseHandle['db'], runId: string): Promise<string[]> {
  const boss = await getJobQueue(handle);
  const jobs = await boss.findJobs(TASK_QUEUE, { data: { run_id: runId }, queued: true, limit: 100_000, db: jobsIn(handle, tx) });
  return jobs.map((job) => job.id);
}

export async function cancelRun(handle: DatabaseHandle, principal: Principal, runId: string): Promise<RunState> {
  const boss = await getJobQueue(handle);
  const state = await handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (FINISHED_RUN_STATES.has(run.state as RunState)) throw refuse(`Run ${runId} is ${run.state} already; there is nothing to cancel`, { state: run.state });
    await tx.update(runs).set({ state: 'cancelled', updatedAt: sql`clock_timestamp()`, finishedAt: sql`clock_timestamp()` }).where(eq(runs.id, runId));
    // Tasks not under way end here; a call in flight is aborted by its worker within a second.
    await tx
      .update(taskRuns)
      .set({ state: 'cancelled', finishedAt: sql`clock_timestamp()` })
      .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.state, ['pending', 'retrying', 'awaiting_approval'])));
    const ids = await queuedJobIds(handle, tx, runId);
    const db = jobsIn(handle, tx);
    if (ids.length) await boss.cancel(TASK_QUEUE, ids, { db });
    const gates = (await taskRunsOf(tx, runId)).map((r) => r.gateJobId).filter((id): id is string => !!id);
    if (gates.length) await boss.cancel(DECISION_QUEUE, gates, { db });
    await appendRunEvent(tx, runId, { kind: 'run_cancelled', actor: principal.username });
    await appendAudit(tx, { kind: 'run_cancelled', actor: principal.username, planId: run.planId, revision: run.revision, contentHash: run.contentHash, detail: { run_id: runId } });
    return 'cancelled' as RunState;
  });
  // Once committed, so the aborted calls find the run cancelled: here at once, elsewhere within a second.
  abortRunCalls(runId);
  return state;
}

export async function pauseRun(handle: DatabaseHandle, principal: Principal, runId: string): Promise<RunState> {
  const boss = await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (!['running', 'awaiting_approval', 'needs_replan'].includes(run.state)) throw refuse(`Run ${runId} is ${run.state.replace('_', ' ')}; only a running run can be paused`, { state: run.state });
    // Jobs not yet started are held (pg-boss cancel, undone by resume); calls under way finish.
    const ids = await queuedJobIds(handle, tx, runId);
    if (ids.length) await boss.cancel(TASK_QUEUE, ids, { db: jobsIn(handle, tx) });
    await tx.update(runs).set({ state: 'paused', updatedAt: sql`clock_timestamp()` }).where(eq(runs.id, runId));
    await appendRunEvent(tx, runId, { kind: 'run_paused', actor: principal.username, detail: { held_jobs: ids } });
    return 'paused' as RunState;
  });
}

export async function resumeRun(handle: DatabaseHandle, principal: Principal, runId: string): Promise<RunState> {
  const boss = await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (run.state !== 'paused') throw refuse(`Run ${runId} is ${run.state.replace('_', ' ')}, not paused`, { state: run.state });
    const held = await boss.findJobs(TASK_QUEUE, { data: { run_id: runId }, limit: 100_000, db: jobsIn(handle, tx) });
    const ids = held.filter((job) => job.state === 'cancelled').map((job) => job.id);
    if (ids.length) await boss.resume(TASK_QUEUE, ids, { db: jobsIn(handle, tx) });
    await tx.update(runs).set({ state: 'running', updatedAt: sql`clock_timestamp()` }).where(eq(runs.id, runId));
    await appendRunEvent(tx, runId, { kind: 'run_resumed', actor: principal.username });
    return refreshRunState(tx, runId, principal.username);
  });
}

/** Runs a failed (or cancelled) task again, with the tasks it blocked, as fresh jobs. */
export async function retryTask(handle: DatabaseHandle, principal: Principal, runId: string, taskId: string): Promise<RunState> {
  const boss = await getJobQueue(handle);
  const context = await loadRunContext(handle.db, runId);
  if (!context.tasks.has(taskId)) throw notFound(`Task "${taskId}" in run ${runId}`);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (run.state === 'cancelled' || run.state === 'succeeded') throw refuse(`Run ${runId} is ${run.state}; start a new run instead`, { state: run.state });
    const records = new Map((await taskRunsOf(tx, runId)).map((r) => [r.taskId, r]));
    const state = records.get(taskId)?.state as TaskState | undefined;
    if (state !== 'failed' && state !== 'cancelled') throw refuse(`Task ${taskId} is ${state ?? 'unknown'}; only a failed or cancelled task can be retried`, { state });
    // The task and everything it blocked, downstream, in dependency order.
    const again = new Set([taskId]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const task of context.document.plan.planned_tasks) {
        if (again.has(task.task_id) || records.get(task.task_id)?.state !== 'blocked') continue;
        if ((task.dependencies ?? []).some((dep) => again.has(dep))) {
          again.add(task.task_id);
          grew = true;
        }
      }
    }
    const jobs: FlowJob[] = [];
    for (const id of again) {
      const task = context.tasks.get(id)!;
      const jobId = randomUUID();
      await updateTaskRun(tx, runId, id, { state: 'pending', error: null, jobId, finishedAt: null, gateDecidedBy: requiresApproval(task) && id !== taskId ? null : records.get(id)?.gateDecidedBy ?? null });
      jobs.push(taskJob(runId, task, jobId, (task.dependencies ?? []).filter((dep) => again.has(dep))));
    }
    await enqueue(boss, jobs, jobsIn(handle, tx));
    if (run.state === 'needs_replan' || run.state === 'failed') await tx.update(runs).set({ state: 'running', finishedAt: null }).where(eq(runs.id, runId));
    await appendRunEvents(tx, runId, [{ kind: 'task_retried', taskId, actor: principal.username, detail: { with: [...again].filter((id) => id !== taskId) } }]);
    return refreshRunState(tx, runId, principal.username);
  });
}

/**
 * A person's decision at a gate: approve releases the task, reject fails it (its
 * dependents stay blocked and the run needs a replan). Four-eyes is the plan's rule
 * (gate-deciders.ts): not the starter, not who shaped the revision, no sock puppet of
 * either, no service account. Each gate is decided on its own.
 */
export async function decideGate(handle: DatabaseHandle, principal: Principal, runId: string, taskId: string, decision: 'approve' | 'reject', comment = ''): Promise<RunState> {
  const boss = await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    await assertMayDecideGate(tx, run, principal);
    const [record] = await tx.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId))).for('update');
    if (!record) throw notFound(`Task "${taskId}" in run ${runId}`);
    if (!record.gateJobId) throw refuse(`Task ${taskId} has no gate (parameters.requires_approval is not set)`);
    if (record.state !== 'awaiting_approval') throw refuse(`Task ${taskId} is ${record.state.replace('_', ' ')}, not waiting at its gate`, { state: record.state });
    if (decision === 'approve') {
      await updateTaskRun(tx, runId, taskId, { state: 'pending', gateDecidedBy: principal.username });
    } else {
      await updateTaskRun(tx, runId, taskId, { state: 'failed', gateDecidedBy: principal.username, error: `Rejected at its gate by ${principal.username}${comment ? `: ${comment}` : ''}`, finishedAt: new Date() });
    }
    // The decision job is released (its dependencies were done: the task is awaiting), so
    // completing it cannot let the task run early; a rejected task's job finds it failed.
    await boss.complete(DECISION_QUEUE, record.gateJobId, { decision, by: principal.username }, { db: jobsIn(handle, tx), includeQueued: true });
    const kind = decision === 'approve' ? 'gate_approved' : 'gate_rejected';
    await appendRunEvent(tx, runId, { kind, taskId, actor: principal.username, detail: comment ? { comment } : {} });
    await appendAudit(tx, { kind, actor: principal.username, planId: run.planId, revision: run.revision, contentHash: run.contentHash, detail: { run_id: runId, task_id: taskId, comment } });
    return refreshRunState(tx, runId, principal.username);
  });
}

/**
 * A result reported later by an executor that answered 202 (the caller verified its signature,
 * which covers `attempt`). Taken once, and only for the attempt in flight: a result for an
 * earlier attempt, or a second one, is refused and changes nothing.
 */
export async function reportTaskResult(
  handle: DatabaseHandle,
  runId: string,
  taskId: string,
  attempt: number,
  result: { state: 'succeeded'; output: unknown } | { state: 'failed'; error: string },
): Promise<RunState> {
  return handle.db.transaction(async (tx) => {
    await lockRunRow(tx, runId);
    const [record] = await tx.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId))).for('update');
    if (!record) throw notFound(`Task "${taskId}" in run ${runId}`);
    if (record.state !== 'running') throw refuse(`Task ${taskId} is ${record.state}, not waiting for a result`, { state: record.state });
    if (record.attempts !== attempt) throw refuse(`The result is for attempt ${attempt} of task ${taskId}, but attempt ${record.attempts} is in flight`, { attempt: record.attempts });
    if (result.state === 'succeeded') {
      await updateTaskRun(tx, runId, taskId, { state: 'succeeded', output: result.output, error: null, finishedAt: new Date() });
      await appendRunEvent(tx, runId, { kind: 'task_succeeded', taskId, detail: { reported: true } });
    } else {
      await updateTaskRun(tx, runId, taskId, { state: 'failed', error: result.error.slice(0, 2000), finishedAt: new Date() });
      await appendRunEvent(tx, runId, { kind: 'task_failed', taskId, detail: { reported: true, error: result.error.slice(0, 2000) } });
    }
    return refreshRunState(tx, runId);
  });
}
