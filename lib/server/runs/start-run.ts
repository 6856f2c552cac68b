import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FlowJob } from 'pg-boss';
import type { PlannerTask } from '@/lib/plan';
import { requiresApproval, retryLimit, timeoutSeconds } from '@/lib/runs/task-policy';
import type { RunState } from '@/lib/runs/run-states';
import { getApprovedPlan } from '../approval/approval-service';
import { appendAudit } from '../audit/audit-log';
import { canonicalJson } from '../audit/digests';
import type { Principal } from '../auth/principal';
import type { DatabaseHandle } from '../db/client';
import { runs, taskRuns } from '../db/schema';
import { AppError, notFound } from '../errors';
import { DECISION_QUEUE, enqueue, getJobQueue, jobsIn, TASK_QUEUE } from './job-queue';
import { appendRunEvents, type RunEventInput } from './run-events';
import { loadRunContext, refreshRunState, taskRunsOf, type TaskRunRow } from './run-records';

// Starting a run is one transaction: the approval is checked (the same check the executors'
// hand-off makes: status, live approvals, stored hash, audit chain, bound resources), the
// run and its tasks are recorded, and one job per task is enqueued with its dependencies.
// If any part fails, nothing was started.

export interface StartRunInput {
  revision: number;
  content_hash: string;
  /** A run that stopped for a replan: its succeeded tasks are carried over, not run again. */
  continue_from?: string;
}

export interface TaskJobData {
  run_id: string;
  task_id: string;
  /** 'task' runs the task; 'gate' tells people a gated task is ready and waits. */
  kind: 'task' | 'gate';
  retry_limit: number;
}

/** One attempt-carrying job for `task`, under the task's own retry and timeout policy. */
export function taskJob(runId: string, task: PlannerTask, jobId: string, dependsOn: string[]): FlowJob {
  const limit = retryLimit(task);
  return {
    ref: task.task_id,
    name: TASK_QUEUE,
    data: { run_id: runId, task_id: task.task_id, kind: 'task', retry_limit: limit } satisfies TaskJobData,
    options: { id: jobId, retryLimit: limit, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, expireInSeconds: Math.ceil(timeoutSeconds(task)) + 120 },
    dependsOn,
  };
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

export async function startRun(handle: DatabaseHandle, principal: Principal, planId: string, input: StartRunInput): Promise<{ run_id: string; state: RunState }> {
  const boss = await getJobQueue(handle);
  const runId = randomUUID();
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
    if (input.continue_from) {
      const [parent] = await tx.select().from(runs).where(eq(runs.id, input.continue_from));
      if (!parent || parent.planId !== planId) throw notFound(`Run "${input.continue_from}" of plan "${planId}"`);
      if (!['needs_replan', 'failed', 'cancelled'].includes(parent.state)) {
        throw new AppError('conflict', 409, `Run ${parent.id} is ${parent.state.replace('_', ' ')}: only a run that stopped (needs replan, failed or cancelled) can be continued`);
      }
      const context = await loadRunContext(tx, parent.id);
      carried = carriedTasks(tasks, context.tasks, await taskRunsOf(tx, parent.id));
    }

    const ids = new Set(tasks.map((t) => t.task_id));
    const jobIds = new Map(tasks.filter((t) => !carried.has(t.task_id)).map((t) => [t.task_id, randomUUID()]));
    const gateJobIds = new Map(tasks.filter((t) => jobIds.has(t.task_id) && requiresApproval(t)).map((t) => [t.task_id, randomUUID()]));

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
    const rows: (typeof taskRuns.$inferInsert)[] = tasks.map((task) => {
      const from = carried.get(task.task_id);
      return from
        ? { runId, taskId: task.task_id, state: 'succeeded', output: from.output, carriedFrom: from.carriedFrom ?? from.runId, attempts: 0, startedAt: from.startedAt, finishedAt: from.finishedAt }
        : { runId, taskId: task.task_id, state: 'pending', jobId: jobIds.get(task.task_id)!, gateJobId: gateJobIds.get(task.task_id) ?? null };
    });
    // One statement per chunk keeps a 20,000-task plan within PostgreSQL's parameter limit.
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(taskRuns).values(rows.slice(i, i + 1000));

    const jobs: FlowJob[] = [];
    for (const task of tasks) {
      const id = jobIds.get(task.task_id);
      if (!id) continue;
      const deps = [...new Set(task.dependencies ?? [])].filter((dep) => ids.has(dep) && jobIds.has(dep));
      const gate = gateJobIds.get(task.task_id);
      if (gate) {
        // Notice (when the dependencies are done) → a person's decision → the task itself.
        jobs.push({ ref: `gate:${task.task_id}`, name: TASK_QUEUE, data: { run_id: runId, task_id: task.task_id, kind: 'gate', retry_limit: 2 } satisfies TaskJobData, options: { id: randomUUID(), retryLimit: 2 }, dependsOn: deps });
        jobs.push({ ref: `decision:${task.task_id}`, name: DECISION_QUEUE, data: { run_id: runId, task_id: task.task_id }, options: { id: gate } });
        jobs.push(taskJob(runId, task, id, [`gate:${task.task_id}`, `decision:${task.task_id}`]));
      } else {
        jobs.push(taskJob(runId, task, id, deps));
      }
    }
    await enqueue(boss, jobs, jobsIn(handle, tx));

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
