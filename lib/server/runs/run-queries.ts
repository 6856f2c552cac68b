import 'server-only';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PageQuery } from '@/lib/api/list-schemas';
import type { DecisionSignature } from '@/lib/api/passkey-schemas';
import type { RunEvent, RunResponse, RunSummary, TaskRunView } from '@/lib/api/run-schemas';
import type { RunState, TaskState } from '@/lib/runs/run-states';
import type { Database } from '../platform/db/client';
import { decodeCursor, encodeCursor, pageOf, TimestampKey, timestampKey } from '../platform/db/page-cursor';
import { gateDecisions, plans, runEvents, runs, taskRuns } from '../platform/db/schema';
import { notFound } from '../platform/errors';
import { gateSignatures } from '../passkeys/decision-signatures';
import { checkPlanId } from '../plans/plan-service';
import { loadRunContext } from './run-records';

// Runs as the API and the run view read them.

const iso = (date: Date | null) => (date ? date.toISOString() : null);

type RunRow = typeof runs.$inferSelect;

async function countsOf(db: Database, runIds: string[]): Promise<Map<string, Record<string, number>>> {
  const counts = new Map<string, Record<string, number>>(runIds.map((id) => [id, {}]));
  if (!runIds.length) return counts;
  const rows = await db
    .select({ runId: taskRuns.runId, state: taskRuns.state, n: sql<number>`count(*)::int` })
    .from(taskRuns)
    .where(sql`${taskRuns.runId} in ${runIds}`)
    .groupBy(taskRuns.runId, taskRuns.state);
  for (const row of rows) counts.get(row.runId)![row.state] = row.n;
  return counts;
}

function summaryOf(run: RunRow, counts: Record<string, number>): RunSummary {
  return {
    run_id: run.id,
    plan_id: run.planId,
    revision: run.revision,
    content_hash: run.contentHash,
    resources_hash: run.resourcesHash,
    state: run.state as RunState,
    started_by: run.startedBy,
    parent_run_id: run.parentRunId,
    created_at: run.createdAt.toISOString(),
    finished_at: iso(run.finishedAt),
    counts,
  };
}

function gateView(decision: typeof gateDecisions.$inferSelect | undefined, signature: DecisionSignature | undefined): TaskRunView['gate'] {
  if (!decision) return null;
  return {
    ...(signature ? { signature } : {}),
    decision: decision.decision as 'approve' | 'reject',
    decided_by: decision.decidedBy,
    decided_at: decision.decidedAt.toISOString(),
    comment: decision.comment,
    edited: decision.edited,
    input_hash: decision.inputHash,
  };
}

export async function getRun(db: Database, runId: string): Promise<RunResponse> {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  if (!run) throw notFound(`Run "${runId}"`);
  const [tasks, decisions, signatures, [continuation]] = await Promise.all([
    db.select().from(taskRuns).where(eq(taskRuns.runId, runId)).orderBy(asc(taskRuns.taskId)),
    db.select().from(gateDecisions).where(eq(gateDecisions.runId, runId)),
    gateSignatures(db, runId),
    db.select({ id: runs.id }).from(runs).where(eq(runs.parentRunId, runId)).limit(1),
  ]);
  // Each task's decision for its current generation: an earlier one was for a try that is over.
  const gateOf = new Map(decisions.map((d) => [`${d.taskId}\n${d.generation}`, d]));
  const counts: Record<string, number> = {};
  for (const task of tasks) counts[task.state] = (counts[task.state] ?? 0) + 1;
  // In the plan's order, as seed 000's completed_tasks lists them.
  const order = (await loadRunContext(db, runId).catch(() => null))?.taskIds ?? tasks.map((t) => t.taskId);
  const byId = new Map(tasks.map((t) => [t.taskId, t]));
  const completed = order.filter((id) => byId.get(id)?.state === 'succeeded');
  return {
    ...summaryOf(run, counts),
    continued_by: continuation?.id ?? null,
    task_data: { completed_tasks: completed, output_data: Object.fromEntries(completed.map((id) => [id, byId.get(id)!.output ?? null])) },
    tasks: tasks.map((t) => ({
      task_id: t.taskId,
      state: t.state as TaskState,
      generation: t.generation,
      attempts: t.attempts,
      input: t.input ?? null,
      output: t.output ?? null,
      error: t.error,
      error_kind: (t.errorKind as TaskRunView['error_kind']) ?? null,
      carried_from: t.carriedFrom,
      gate_decided_by: t.gateDecidedBy,
      gate: gateView(gateOf.get(`${t.taskId}\n${t.generation}`), signatures.get(`${t.taskId}\n${t.generation}`)),
      started_at: iso(t.startedAt),
      finished_at: iso(t.finishedAt),
    })),
  };
}

/** One page of a plan's runs, newest first. */
export async function listPlanRuns(db: Database, planId: string, query: PageQuery): Promise<{ runs: RunSummary[]; next_cursor: string | null }> {
  checkPlanId(planId);
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) throw notFound(`Plan "${planId}"`);
  const list = `runs:${planId}`;
  const where = [eq(runs.planId, planId)];
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, list, z.tuple([TimestampKey, z.string().max(200)]));
    where.push(sql`(${runs.createdAt}, ${runs.id}) < (${at}::timestamptz, ${id})`);
  }
  const rows = await db
    .select({ run: runs, key: timestampKey(runs.createdAt) })
    .from(runs)
    .where(and(...where))
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (last) => encodeCursor(list, [last.key, last.run.id]));
  const counts = await countsOf(db, page.items.map((r) => r.run.id));
  return { runs: page.items.map(({ run }) => summaryOf(run, counts.get(run.id)!)), next_cursor: page.next_cursor };
}

/** The run's events after `afterSeq`, oldest first, at most `limit`. */
export async function runEventsAfter(db: Database, runId: string, afterSeq: number, limit = 500): Promise<RunEvent[]> {
  const rows = await db
    .select()
    .from(runEvents)
    .where(and(eq(runEvents.runId, runId), gt(runEvents.seq, afterSeq)))
    .orderBy(asc(runEvents.seq))
    .limit(limit);
  return rows.map((e) => ({ seq: e.seq, at: e.at.toISOString(), kind: e.kind, task_id: e.taskId, actor: e.actor, detail: e.detail }));
}
