import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { SavePlanRequest, documentOf } from '@/lib/api/schemas';
import { unstorableJson, type PlanDocument } from '@/lib/plan';
import { applyReplacements, ReplanError } from '@/lib/replan/apply-replacements';
import { chooseReplanner } from './choose-replanner';
import { replanDiff } from '@/lib/replan/replan-diff';
import type { AppliedReplan, ReplanProposalResponse } from '@/lib/api/operation-schemas';
import { ReplanProposal, type ApplyReplanRequest, type ReplanRequest } from '@/lib/replan/replan-types';
import type { Principal } from '../auth/principal';
import type { Database } from '../platform/db/client';
import { replanProposals } from '../platform/db/schema';
import { parseJsonColumn } from '../platform/db/json-column';
import { AppError, notFound } from '../platform/errors';
import { chooseOrRefuse, plannerFailed } from '../planning/planning-service';
import { PLAN_ID_PATTERN, newPlanId } from '../plans/plan-id';
import { checkPlanId, getPlan, savePlan } from '../plans/plan-service';
import { getRegistry } from '../registry/registry-service';

// Replanning marked tasks of a stored plan (seed 000's SubGraphRePlanner) in two steps:
// a proposal for one exact revision, kept so the operator reviews it task by task, and
// applying the accepted part of it as a new revision (which, like every new revision,
// returns the plan to draft and voids its approvals).

/** What the row's own columns do not hold. */
const StoredBody = ReplanProposal.pick({ task_ids: true, instructions: true, replacements: true, planned_by: true, notes: true });

type Row = typeof replanProposals.$inferSelect;

function storedBody(row: Pick<Row, 'id' | 'body'>) {
  return parseJsonColumn(StoredBody, row.body, { table: 'replan_proposals', column: 'body', row: row.id });
}

function toResponse(row: Row, doc: PlanDocument): ReplanProposalResponse {
  const proposal = ReplanProposal.parse({
    ...storedBody(row),
    proposal_id: row.id,
    plan_id: row.planId,
    revision: row.revision,
    content_hash: row.contentHash,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  });
  return {
    ...proposal,
    diff: replanDiff(doc, proposal.replacements),
    applied_revision: row.appliedRevision,
    applied_at: row.appliedAt?.toISOString() ?? null,
  };
}

/** The date the plan's temporal phrases were read against when it was planned, else today. */
function planToday(doc: PlanDocument): string {
  const today = doc.plan.original_job_data?.today;
  return typeof today === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(today) ? today : new Date().toISOString().slice(0, 10);
}

function withMarks(doc: PlanDocument, taskIds: ReadonlySet<string>): PlanDocument {
  const planned_tasks = doc.plan.planned_tasks.map((t) => (taskIds.has(t.task_id) === t.mark_replan ? t : { ...t, mark_replan: taskIds.has(t.task_id) }));
  return { ...doc, plan: { ...doc.plan, planned_tasks } };
}

/** The request parsed by the caller: the endpoint layer or the server action. */
export async function proposeReplan(db: Database, planId: string, request: ReplanRequest, principal: Principal): Promise<ReplanProposalResponse> {
  const { instructions, base_revision, backend } = request;
  const head = await getPlan(db, planId);
  if (base_revision !== undefined && base_revision !== head.revision) {
    throw new AppError('conflict', 409, `Plan "${planId}" is at revision ${head.revision}, not ${base_revision}; reload it and select the tasks again`, undefined, {
      current_revision: head.revision,
    });
  }
  const doc = documentOf(head);
  const inPlan = new Set(doc.plan.planned_tasks.map((t) => t.task_id));
  const taskIds = request.task_ids ? [...new Set(request.task_ids)] : doc.plan.planned_tasks.filter((t) => t.mark_replan).map((t) => t.task_id);
  if (taskIds.length === 0) {
    throw new AppError('bad_request', 400, `No task of plan "${planId}" is marked for replanning (mark_replan); name the tasks in task_ids`);
  }
  const missing = taskIds.filter((id) => !inPlan.has(id));
  if (missing.length) throw new AppError('bad_request', 400, `No task ${missing.map((m) => `"${m.slice(0, 100)}"`).join(', ')} in plan "${planId}"`);

  if (unstorableJson(instructions ?? '', 1)) {
    throw new AppError('bad_request', 400, 'The instructions contain a NUL character or an unpaired UTF-16 surrogate, which cannot be stored');
  }
  const replanner = chooseOrRefuse(chooseReplanner, backend);
  const marked = withMarks(doc, new Set(taskIds));
  const result = await replanner
    .replan({ doc: marked, taskIds, instructions, registry: await getRegistry(db), today: planToday(doc) })
    .then((r) => {
      // Every replanner's answer must apply as a whole; the LLM's is checked already, this guards the rest.
      applyReplacements(marked, r.replacements, taskIds);
      // A model may answer with text no row can hold: its failure, not the server's (a 502, not a 500 on insert).
      if (unstorableJson(r, Number.MAX_SAFE_INTEGER) === 'text') throw new Error('its answer contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored');
      return r;
    })
    .catch((error: unknown) => {
      throw plannerFailed(replanner, error);
    });

  const [row] = await db
    .insert(replanProposals)
    .values({
      id: newPlanId(),
      planId,
      revision: head.revision,
      contentHash: head.content_hash,
      body: StoredBody.parse({
        task_ids: taskIds,
        instructions,
        replacements: result.replacements,
        planned_by: { backend: replanner.backend, model: replanner.model, label: replanner.label },
        notes: result.notes,
      }),
      createdBy: principal.username,
    })
    .returning();
  return toResponse(row, doc);
}

async function findProposal(db: Database, planId: string, proposalId: string): Promise<Row> {
  checkPlanId(planId);
  const missing = () => notFound(`Replan proposal "${proposalId.slice(0, 64)}" of plan "${planId}"`);
  if (!PLAN_ID_PATTERN.test(proposalId)) throw missing();
  const [row] = await db
    .select()
    .from(replanProposals)
    .where(and(eq(replanProposals.id, proposalId), eq(replanProposals.planId, planId)));
  if (!row) throw missing();
  return row;
}

export async function getReplanProposal(db: Database, planId: string, proposalId: string): Promise<ReplanProposalResponse> {
  const row = await findProposal(db, planId, proposalId);
  return toResponse(row, documentOf(await getPlan(db, planId, row.revision)));
}

export async function applyReplanProposal(db: Database, planId: string, proposalId: string, request: ApplyReplanRequest, principal: Principal): Promise<AppliedReplan> {
  const row = await findProposal(db, planId, proposalId);
  if (row.appliedRevision !== null) {
    throw new AppError('conflict', 409, `Replan proposal "${proposalId}" was already applied, as revision ${row.appliedRevision} of plan "${planId}"`, undefined, {
      applied_revision: row.appliedRevision,
    });
  }
  const { replacements } = storedBody(row);
  const proposed = replacements.map((r) => r.replaces);
  const accepted = [...new Set(request.accepted_task_ids)];
  const unknown = accepted.find((id) => !proposed.includes(id));
  if (unknown !== undefined) {
    throw new AppError('bad_request', 400, `Replan proposal "${proposalId}" has no replacement for task "${unknown.slice(0, 100)}"; it replaces ${proposed.map((id) => `"${id}"`).join(', ')}`);
  }

  const base = await getPlan(db, planId, row.revision);
  let applied: PlanDocument;
  try {
    applied = applyReplacements(documentOf(base), replacements, accepted);
  } catch (error) {
    if (error instanceof ReplanError) throw new AppError('unprocessable', 422, error.message, undefined, { reason: error.code });
    throw error;
  }
  // The new revision and the proposal's "applied" mark are one transaction: a crash
  // between them cannot leave a proposal that looks unapplied but was.
  const saved = await db.transaction(async (tx) => {
    // Based on the proposal's revision, so a plan that moved on since is a conflict.
    const result = await savePlan(
      tx,
      planId,
      SavePlanRequest.parse({
        base_revision: row.revision,
        plan: applied.plan,
        subgraphs: applied.subgraphs,
        view: applied.view,
        message: `Replanned ${accepted.join(', ')} (proposal ${proposalId})`.slice(0, 500),
      }),
      principal.username,
    ).catch((error: unknown) => {
      if (!(error instanceof AppError) || error.code !== 'conflict') throw error;
      throw new AppError(
        'conflict',
        409,
        `Plan "${planId}" has moved on since this proposal was made for revision ${row.revision}; propose the replanning again on the current revision`,
        undefined,
        error.extra,
      );
    });
    await tx
      .update(replanProposals)
      .set({ appliedRevision: result.revision, appliedAt: sql`clock_timestamp()` })
      .where(and(eq(replanProposals.id, proposalId), isNull(replanProposals.appliedRevision)));
    return result;
  });
  return { proposal_id: proposalId, revision: saved.revision, content_hash: saved.content_hash, applied: accepted, plan: await getPlan(db, planId, saved.revision) };
}
