import 'server-only';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ResourceSnapshot, resolveTargets } from '@/lib/approval/approved-resources';
import { documentSchema, readStoredDocument, taskTarget, type PlanDocument, type PlannerTask } from '@/lib/plan';
import { RESOURCE_KINDS, type Resource } from '@/lib/registry';
import { deriveRunState, FINISHED_RUN_STATES, TASK_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import type { Database } from '../platform/db/client';
import { runs, taskRuns } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { hashVersionOf, serverContentHash } from '../plans/document-hashes';
import { findRevision } from '../plans/plan-repository';
import { emitWebhookEvent } from '../webhooks/events';
import { notify } from '../inbox/notify';
import { announceWaitingGates } from './gate-notice';
import { appendRunEvent, appendRunEvents, type DerivedEvents, type RunEventInput } from './run-events';

// What a worker reads and writes about a run. A task is always read from the approved,
// immutable revision the run was started on, and checked against the run's content hash;
// its resource from the snapshot the approval bound. The editable draft and the live
// registry are never consulted once a run has started.

export type RunRow = typeof runs.$inferSelect;
export type TaskRunRow = typeof taskRuns.$inferSelect;

export interface RunContext {
  run: RunRow;
  document: PlanDocument;
  tasks: Map<string, PlannerTask>;
  /** The plan's task ids in order (what `${step[n]}` counts). */
  taskIds: string[];
  resources: ResourceSnapshot;
}

// Approved revisions never change, so a run's document is read and verified once per process.
const verified = new Map<string, { document: PlanDocument; resources: ResourceSnapshot; tasks: Map<string, PlannerTask>; taskIds: string[] }>();
const MAX_CACHED_RUNS = 50;

/** `locked`: the run's row as the caller's transaction locked it (lockRunRow), so it is not read again. */
export async function loadRunContext(db: Database, runId: string, locked?: RunRow): Promise<RunContext> {
  const [run] = locked ? [locked] : await db.select().from(runs).where(eq(runs.id, runId));
  if (!run) throw notFound(`Run "${runId}"`);
  let entry = verified.get(runId);
  if (!entry) {
    const row = await findRevision(db, run.planId, run.revision);
    if (!row) throw new AppError('integrity', 409, `Run ${runId}: revision ${run.revision} of plan ${run.planId} is missing`);
    const parsed = readStoredDocument(row.body, row.schemaVersion, documentSchema);
    const raw = (row.body ?? {}) as Record<string, unknown>;
    const hash = serverContentHash({ plan: raw.plan as never, job: raw.job as never, subgraphs: raw.subgraphs as never }, hashVersionOf(row));
    if (!parsed.success || hash !== run.contentHash || row.contentHash !== run.contentHash) {
      throw new AppError('integrity', 409, `Run ${runId}: revision ${run.revision} no longer hashes to the approved ${run.contentHash}; nothing more of it runs`);
    }
    const resources = ResourceSnapshot.safeParse(run.resources);
    if (!resources.success) throw new AppError('integrity', 409, `Run ${runId}: its approved resource snapshot is unreadable`);
    const tasks = parsed.data.plan.planned_tasks;
    entry = { document: parsed.data, resources: resources.data, tasks: new Map(tasks.map((t) => [t.task_id, t])), taskIds: tasks.map((t) => t.task_id) };
    if (verified.size >= MAX_CACHED_RUNS) verified.delete(verified.keys().next().value!);
    verified.set(runId, entry);
  }
  return { run, ...entry };
}

/** The resource the task routes to, from the run's approved snapshot; null when it names none. */
export function approvedResource(context: RunContext, task: PlannerTask): Resource | null {
  const target = taskTarget(task);
  if (!target) return null;
  const found = resolveTargets([`${target.kind}:${target.id.toLowerCase()}`], context.resources.definitions);
  for (const kind of RESOURCE_KINDS) if (found.definitions[kind].length) return found.definitions[kind][0] as Resource;
  return null;
}

export async function taskRunsOf(db: Database, runId: string, taskIds?: readonly string[]): Promise<TaskRunRow[]> {
  if (taskIds && !taskIds.length) return [];
  return db
    .select()
    .from(taskRuns)
    .where(taskIds ? and(eq(taskRuns.runId, runId), inArray(taskRuns.taskId, [...taskIds])) : eq(taskRuns.runId, runId));
}

export async function updateTaskRun(tx: Database, runId: string, taskId: string, patch: Partial<Omit<TaskRunRow, 'runId' | 'taskId'>>): Promise<void> {
  await tx
    .update(taskRuns)
    .set(patch)
    .where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId)));
  // Whatever opens a gate (its dependencies done, a retry re-opening it) tells who may decide it.
  if (patch.state === 'awaiting_approval') await announceWaitingGates(tx, runId, [taskId]);
}

// A gate waiting is announced per gate, to the people who may decide it, by
// announceWaitingGates (updateTaskRun calls it as the gate opens), not on the run's state change.
const RUN_WEBHOOKS: Partial<Record<RunState, 'run.needs_replan' | 'run.succeeded' | 'run.failed'>> = {
  needs_replan: 'run.needs_replan',
  succeeded: 'run.succeeded',
  failed: 'run.failed',
};

const SUMMARIES: Partial<Record<RunState, string>> = {
  needs_replan: 'has a failed task and needs a replan',
  succeeded: 'succeeded',
  failed: 'failed',
};

/**
 * Locks the run row for this transaction. Every transaction that changes a run takes this
 * lock first: its event inserts take a key-share lock on the same row (run_events' foreign
 * key), and two transactions that each held that and then asked for this would deadlock.
 * NO KEY UPDATE still lets other transactions' foreign-key checks through.
 */
export async function lockRunRow(tx: Database, runId: string): Promise<RunRow> {
  const [run] = await tx.select().from(runs).where(eq(runs.id, runId)).for('no key update');
  if (!run) throw notFound(`Run "${runId}"`);
  return run;
}

const UNFINISHED_TASK_STATES = TASK_STATES.filter((state) => state !== 'succeeded' && state !== 'skipped');

/**
 * What deriveRunState needs of the run's tasks, which is only which kinds of state are
 * present, not how many: three index probes on (run_id, state), where counting would read
 * every task of the run on every transition (a 2,000-task run read 2,000 rows per task).
 * Answered as counts of 0 or 1 that derive the same state as the real counts.
 */
function presenceProbes(runId: string, finishing?: SQL): SQL {
  const any = (states: readonly TaskState[], except?: SQL) =>
    sql`EXISTS (SELECT 1 FROM task_runs t WHERE t.run_id = ${runId} AND t.state IN (${sql.join(
      states.map((state) => sql`${state}`),
      sql`, `,
    )})${except ? sql` AND t.task_id NOT IN ${except}` : sql``})`;
  return sql`${any(UNFINISHED_TASK_STATES, finishing)} AS unfinished, ${any(['failed', 'blocked'])} AS broken, ${any(['awaiting_approval'])} AS gate`;
}

type Presence = Partial<Record<TaskState, number>>;

function presenceOf(present: Record<string, unknown> | undefined): Presence {
  const broken = present?.broken ? 1 : 0;
  const gate = present?.gate ? 1 : 0;
  return { succeeded: 1, failed: broken, awaiting_approval: gate, pending: present?.unfinished && !broken && !gate ? 1 : 0 };
}

async function presentStates(tx: Database, runId: string): Promise<Presence> {
  return presenceOf((await tx.execute(sql`SELECT ${presenceProbes(runId)}`) as unknown as { rows: Record<string, unknown>[] }).rows[0]);
}

/**
 * Brings the run's state in line with its tasks', with an event and (for the states people
 * act on) a notification and a webhook. Locks the run row (unless the caller passes the row
 * it locked), so concurrent workers agree.
 * `failed` is never derived: it is forced when the run's approved record fails its integrity check.
 */
export async function refreshRunState(tx: Database, runId: string, actor = 'plangate', forced?: 'failed', locked?: RunRow, present?: Presence): Promise<RunState> {
  // `locked`: the row as this transaction locked it, when nothing since has changed the run's own row.
  const run = locked ?? (await lockRunRow(tx, runId));
  const current = run.state as RunState;
  const next = forced ?? deriveRunState(current, present ?? (await presentStates(tx, runId)));
  if (next === current) return current;
  await tx
    .update(runs)
    .set({ state: next, updatedAt: sql`clock_timestamp()`, finishedAt: FINISHED_RUN_STATES.has(next) ? sql`clock_timestamp()` : null })
    .where(eq(runs.id, runId));
  await appendRunEvent(tx, runId, { kind: 'run_state', actor, detail: { from: current, to: next } });
  const event = RUN_WEBHOOKS[next];
  if (event) {
    await emitWebhookEvent(tx, { event, planId: run.planId, actor, detail: { run_id: runId, revision: run.revision, content_hash: run.contentHash, state: next } });
    await notify(tx, {
      recipients: [run.startedBy],
      kind: 'run',
      runId,
      planId: run.planId,
      revision: run.revision,
      actor,
      summary: `Run of r${run.revision} ${SUMMARIES[next]}`,
    });
  }
  return next;
}

/**
 * Records `events` (and `derived`'s) of the run whose row this transaction locked (and has not
 * written since), then brings its state in line: the probes of its tasks' states ride on the
 * events' insert, and see the tasks as they were before it. So `derived`'s changes must not
 * change which kinds of task state the run has, except finishing running tasks: `finishing`
 * selects the ids of those (`(SELECT task_id FROM cte)`), which the probe of unfinished tasks
 * leaves out. Answers the state and the statement's row (`derived`'s columns).
 */
export async function recordEventsAndRefresh(tx: Database, run: RunRow, events: RunEventInput[], derived: DerivedEvents[] = [], finishing?: SQL): Promise<{ state: RunState; row: Record<string, unknown> | undefined }> {
  const row = await appendRunEvents(tx, run.id, events, presenceProbes(run.id, finishing), derived);
  return { state: await refreshRunState(tx, run.id, 'plangate', undefined, run, presenceOf(row)), row };
}

/** Records task changes and their events, then (unless told not to) the run's state, in one transaction. */
export async function recordTaskChange(
  db: Database,
  runId: string,
  changes: Array<{ taskId: string; patch: Partial<Omit<TaskRunRow, 'runId' | 'taskId'>>; event: RunEventInput }>,
  options: { refresh: boolean } = { refresh: true },
): Promise<RunState | null> {
  return db.transaction(async (tx) => {
    await lockRunRow(tx, runId);
    for (const { taskId, patch } of changes) if (Object.keys(patch).length) await updateTaskRun(tx, runId, taskId, patch);
    await appendRunEvents(
      tx,
      runId,
      changes.map(({ taskId, event }) => ({ ...event, taskId })),
    );
    return options.refresh ? refreshRunState(tx, runId) : null;
  });
}
