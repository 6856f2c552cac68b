import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PlannerTask } from '@/lib/plan';
import type { RunState } from '@/lib/runs/run-states';
import { getApprovedPlan } from '../approval/approval-service';
import { appendAudit } from '../audit/audit-log';
import { canonicalJson } from '../audit/digests';
import type { Principal } from '../auth/principal';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { runs, taskRuns } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { getJobQueue } from './job-queue';
import { appendRunEvents, type RunEventInput } from './run-events';
import { loadRunContext, lockRunRow, refreshRunState, taskRunsOf, type TaskRunRow } from './run-records';
import { scheduleReady, unmetDependencies } from './run-scheduler';

// Starting a run is one transaction: the approval is checked (the same check the executors'
// hand-off makes: status, live approvals, stored hash, audit chain, bound resources), the
// run and its tasks are recorded, and the tasks that are ready (no dependency, or only ones
// carried over) get their jobs (run-scheduler.ts). If any part fails, nothing was started.

export interface StartRunInput {
  revision: number;
  content_hash: string;
  /** A run that stopped for a replan: its succeeded tasks are carried over, not run again. */
  continue_from?: string;
}

// What a task does, without what a run or review wrote on it: a task whose definition is
// unchanged by a replan keeps the output it recorded.
const definitionOf = ({ status: _status, mark_replan: _mark, output: _output, ...rest }: PlannerTask) => canonicalJson(rest);

/** The parent's succeeded tasks that the new revision has unchanged, with everything upstream of them. */
function carriedTasks(tasks: PlannerTask[], parentTasks: Map<string, PlannerTask>, parentRuns: TaskRunRow[]): Map<string, TaskRunRow> {
  const succeeded = new Map(parentRuns.filter((r) => r.state === 'succeeded').map((r) => [r.taskId, r]));
  const byId = new Map(tasks.map((t) => [t.task_id, t]));
  const carried = new Map<string, TaskRunRow>();
  const memo = new Map<string, boolean>();
  const canCarry = (id: string, seen = new Set<string>()): boolean => {
    if (memo.has(id)) return memo.get(id)!;
    const task = byId.get(id);
    const before = parentTasks.get(id);
    const record = succeeded.get(id);
    let ok = !!task && !!before && !!record && !seen.has(id) && definitionOf(task) === definitionOf(before);
    if (ok) {
      seen.add(id);
      ok = (task!.dependencies ?? []).every((dep) => canCarry(dep, seen));
    }
    memo.set(id, ok);
    if (ok) carried.set(id, record!);
    return ok;
  };
  for (const task of tasks) canCarry(task.task_id);
  return carried;
}

/**
 * What a continuation of `parentId` carries over, once its checks pass: the parent is of this
 * plan, has stopped, has nothing under way, and was not continued before (checked under its
 * row lock, so two continuations asked for at once get one 201 and one 409).
 */
async function continuationOf(tx: Database, planId: string, parentId: string, tasks: PlannerTask[]): Promise<Map<string, TaskRunRow>> {
  const [exists] = await tx.select({ planId: runs.planId }).from(runs).where(eq(runs.id, parentId));
  if (!exists || exists.planId !== planId) throw notFound(`Run "${parentId}" of plan "${planId}"`);
  const parent = await lockRunRow(tx, parentId);
  const [earlier] = await tx.select({ id: runs.id }).from(runs).where(eq(runs.parentRunId, parentId)).limit(1);
  if (earlier) {
    throw new AppError('conflict', 409, `Run ${parentId} was continued already, by run ${earlier.id}; continue that run instead`, undefined, { continued_by: earlier.id });
  }
  if (!['needs_replan', 'failed', 'cancelled'].includes(parent.state)) {
    throw new AppError('conflict', 409, `Run ${parent.id} is ${parent.state.replace('_', ' ')}: only a run that stopped (needs replan, failed or cancelled) can be continued`);
  }
  const [busy] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(taskRuns)
    .where(and(eq(taskRuns.runId, parentId), sql`(${taskRuns.state} IN ('running', 'retrying') OR (${taskRuns.state} = 'pending' AND ${taskRuns.jobId} IS NOT NULL))`));
  if (busy.n) {
    throw new AppError('conflict', 409, `Run ${parentId} still has ${busy.n} task${busy.n === 1 ? '' : 's'} under way: continue it once they have ended, or cancel it first`, undefined, { under_way: busy.n });
  }
  const context = await loadRunContext(tx, parentId);
  return carriedTasks(tasks, context.tasks, await taskRunsOf(tx, parentId));
}

/**
 * A continued run starts nothing more: its gates still waiting close, and its tasks not
 * reached (none is queued: continuationOf checked) are the continuation's now.
 */
async function closeParent(tx: Database, parentId: string, runId: string): Promise<void> {
  const closed = await tx
    .update(taskRuns)
    .set({ state: 'cancelled', jobId: null, finishedAt: new Date(), error: `Not run here: run ${runId} continues this run` })
    .where(and(eq(taskRuns.runId, parentId), inArray(taskRuns.state, ['pending', 'awaiting_approval'])))
    .returning({ taskId: taskRuns.taskId });
  await appendRunEvents(
    tx,
    parentId,
    closed.map((row) => ({ kind: 'task_cancelled' as const, taskId: row.taskId, detail: { continued_by: runId } })),
  );
}

export async function startRun(handle: DatabaseHandle, principal: Principal, planId: string, input: StartRunInput): Promise<{ run_id: string; state: RunState }> {
  const runId = randomUUID();
  // Started before the transaction: on PGlite starting it inside would wait on its connection forever.
  await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const approved = await getApprovedPlan(tx, planId);
    if (approved.revision !== input.revision || approved.content_hash !== input.content_hash) {
      throw new AppError(
        'stale',
        409,
        `Revision ${input.revision} (${input.content_hash.slice(0, 12)}…) is not what is approved: revision ${approved.revision} (${approved.content_hash.slice(0, 12)}…) is. Nothing was started.`,
        undefined,
        { reason: 'stale', approved_revision: approved.revision, approved_content_hash: approved.content_hash },
      );
    }
    const tasks = approved.document.plan.planned_tasks;

    let carried = new Map<string, TaskRunRow>();
    if (input.continue_from) carried = await continuationOf(tx, planId, input.continue_from, tasks);

    await tx.insert(runs).values({
      id: runId,
      planId,
      revision: approved.revision,
      contentHash: approved.content_hash,
      resources: { targets: approved.resources.targets, definitions: approved.resources.definitions },
      resourcesHash: approved.resources.hash,
      state: 'running',
      startedBy: principal.username,
      parentRunId: input.continue_from ?? null,
    });
    const unmet = unmetDependencies(tasks, (id) => carried.has(id));
    const rows: (typeof taskRuns.$inferInsert)[] = tasks.map((task) => {
      const from = carried.get(task.task_id);
      return from
        ? { runId, taskId: task.task_id, state: 'succeeded', released: true, output: from.output, carriedFrom: from.carriedFrom ?? from.runId, attempts: 0, startedAt: from.startedAt, finishedAt: from.finishedAt }
        : { runId, taskId: task.task_id, state: 'pending', waitingOn: unmet.get(task.task_id)! };
    });
    // One statement per chunk keeps a 20,000-task plan within PostgreSQL's parameter limit.
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(taskRuns).values(rows.slice(i, i + 1000));
    if (input.continue_from) await closeParent(tx, input.continue_from, runId);
    await scheduleReady(handle, tx, runId, tasks, tasks.map((t) => t.task_id));

    const events: RunEventInput[] = [
      {
        kind: 'run_started',
        actor: principal.username,
        detail: { revision: approved.revision, content_hash: approved.content_hash, resources_hash: approved.resources.hash, continue_from: input.continue_from ?? null, tasks: tasks.length, carried: carried.size },
      },
      ...[...carried.keys()].map((taskId) => ({ kind: 'task_carried' as const, taskId, detail: { from_run: carried.get(taskId)!.runId } })),
    ];
    await appendRunEvents(tx, runId, events);
    await appendAudit(tx, {
      kind: 'run_started',
      actor: principal.username,
      planId,
      revision: approved.revision,
      contentHash: approved.content_hash,
      detail: { run_id: runId, resources_hash: approved.resources.hash, continue_from: input.continue_from ?? null },
    });
    const state = await refreshRunState(tx, runId, principal.username);
    return { run_id: runId, state };
  });
}
