import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { ApprovedResponse, DecisionRequest, GateResponse, Review, SubmitRequest } from '@/lib/api/gate-schemas';
import type { PlanStatus } from '@/lib/api/schemas';
import { checkDecision, checkSubmit, requiredApprovals, statusAfter, type Decision, type GateState, type Refusal } from '@/lib/approval/gate';
import { PlanDocument } from '@/lib/plan';
import { validatePlan, type ValidationResult } from '@/lib/validate';
import type { z } from 'zod';
import { appendAudit, auditEventOf, listPlanAudit } from '../audit/audit-log';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/client';
import { dryRuns, planReviews, planRevisions, plans } from '../db/schema';
import { getRegistry } from '../registry/registry-service';
import { AppError, notFound } from '../errors';
import { checkPlanId } from '../plans/plan-service';

// Every gate transition is one transaction that first locks the plan row. Saves take the
// same lock (their guarded UPDATE), so a decision and a new revision never interleave:
// either the decision lands on the head and the save then supersedes it, or the save
// lands first and the decision is refused as stale.

type ReviewRow = typeof planReviews.$inferSelect;

function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    revision: row.revision,
    content_hash: row.contentHash,
    decision: row.decision as Decision,
    reviewer: row.reviewer,
    comment: row.comment,
    validation: row.validation,
    created_at: row.createdAt.toISOString(),
    superseded_at: row.supersededAt?.toISOString() ?? null,
  };
}

const REFUSAL_STATUS: Record<Refusal['code'], { status: number; code: 'conflict' | 'stale' | 'unprocessable' | 'forbidden' }> = {
  invalid_state: { status: 409, code: 'conflict' },
  already_decided: { status: 409, code: 'conflict' },
  stale: { status: 409, code: 'stale' },
  has_errors: { status: 422, code: 'unprocessable' },
  four_eyes: { status: 403, code: 'forbidden' },
};

function refuse(refusal: Refusal, validation: ValidationResult, state: GateState): never {
  const { status, code } = REFUSAL_STATUS[refusal.code];
  const details =
    refusal.code === 'has_errors'
      ? validation.issues
          .filter((issue) => issue.severity === 'error')
          .slice(0, 50)
          .map((issue) => ({ path: issue.task_ids.join(', '), message: issue.message }))
      : undefined;
  throw new AppError(code, status, refusal.message, details, {
    reason: refusal.code,
    status: state.status,
    head_revision: state.headRevision,
    head_content_hash: state.headContentHash,
  });
}

interface Locked {
  state: GateState;
  validation: ValidationResult;
}

/** The gate's inputs; `lock` takes the plan row lock for a transition. */
export async function readGate(tx: Database, id: string, lock = false): Promise<Locked> {
  checkPlanId(id);
  const query = tx.select().from(plans).where(eq(plans.id, id));
  const [plan] = lock ? await query.for('update') : await query;
  if (!plan) throw notFound(`Plan "${id}"`);
  const [head] = await tx
    .select()
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), eq(planRevisions.revision, plan.headRevision)));
  const document = PlanDocument.parse(head.body);
  const validation = validatePlan(document.plan, await getRegistry(tx), document.subgraphs);
  const approvals = await liveApprovals(tx, id, plan.headRevision);
  const since = (await lastApprovedRevision(tx, id)) ?? 0;
  const authors = await tx
    .selectDistinct({ author: planRevisions.author })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), gt(planRevisions.revision, since)));
  return {
    validation,
    state: {
      status: plan.status as PlanStatus,
      headRevision: plan.headRevision,
      headContentHash: plan.headContentHash,
      errorCount: validation.issues.filter((issue) => issue.severity === 'error').length,
      recentAuthors: authors.map((row) => row.author),
      submittedBy: plan.submittedBy,
      approvedBy: approvals.map((row) => row.reviewer),
      requiredApprovals: requiredApprovals(),
    },
  };
}

async function latestDryRunId(db: Database, id: string, revision: number): Promise<number | null> {
  const [row] = await db
    .select({ id: dryRuns.id })
    .from(dryRuns)
    .where(and(eq(dryRuns.planId, id), eq(dryRuns.revision, revision)))
    .orderBy(desc(dryRuns.id))
    .limit(1);
  return row?.id ?? null;
}

function liveApprovals(db: Database, id: string, revision: number): Promise<ReviewRow[]> {
  return db
    .select()
    .from(planReviews)
    .where(
      and(
        eq(planReviews.planId, id),
        eq(planReviews.revision, revision),
        eq(planReviews.decision, 'approved'),
        isNull(planReviews.supersededAt),
      ),
    )
    .orderBy(asc(planReviews.id));
}

export async function submitForReview(db: Database, id: string, claim: SubmitRequest, principal: Principal) {
  return db.transaction(async (tx) => {
    const { state, validation } = await readGate(tx, id, true);
    const refusal = checkSubmit(
      state,
      claim.revision !== undefined ? { revision: claim.revision, contentHash: claim.content_hash ?? state.headContentHash } : undefined,
    );
    if (refusal) refuse(refusal, validation, state);
    await tx.update(plans).set({ status: 'in_review', submittedBy: principal.username }).where(eq(plans.id, id));
    await appendAudit(tx, {
      kind: 'submitted',
      actor: principal.username,
      planId: id,
      revision: state.headRevision,
      contentHash: state.headContentHash,
    });
    return { id, status: 'in_review' as const, revision: state.headRevision, content_hash: state.headContentHash };
  });
}

export async function decide(db: Database, id: string, decision: Decision, request: DecisionRequest, principal: Principal) {
  return db.transaction(async (tx) => {
    const { state, validation } = await readGate(tx, id, true);
    const refusal = checkDecision(state, decision, principal.username, { revision: request.revision, contentHash: request.content_hash });
    if (refusal) refuse(refusal, validation, state);
    const [review] = await tx
      .insert(planReviews)
      .values({
        planId: id,
        revision: state.headRevision,
        contentHash: state.headContentHash,
        decision,
        reviewer: principal.username,
        comment: request.comment,
        validation,
      })
      .returning();
    if (decision !== 'approved') {
      // An objection voids the approvals already given to this revision: a later approval
      // must not add up with them and override it.
      const voided = await tx
        .update(planReviews)
        .set({ supersededAt: sql`clock_timestamp()` })
        .where(and(eq(planReviews.planId, id), eq(planReviews.decision, 'approved'), isNull(planReviews.supersededAt)))
        .returning();
      for (const row of voided) {
        await appendAudit(tx, {
          kind: 'superseded',
          actor: principal.username,
          planId: id,
          revision: row.revision,
          contentHash: row.contentHash,
          detail: { review_id: row.id, reviewer: row.reviewer, by_decision: decision },
        });
      }
    }
    const approvals = decision === 'approved' ? state.approvedBy.length + 1 : 0;
    const status = statusAfter(decision, approvals, state.requiredApprovals);
    await tx.update(plans).set({ status }).where(eq(plans.id, id));
    await appendAudit(tx, {
      kind: decision,
      actor: principal.username,
      planId: id,
      revision: state.headRevision,
      contentHash: state.headContentHash,
      // The evidence the decision was made on: the newest dry run of this exact revision.
      detail: { review_id: review.id, comment: request.comment, status, dry_run_id: await latestDryRunId(tx, id, state.headRevision) },
    });
    return { id, status, revision: state.headRevision, content_hash: state.headContentHash, review: toReview(review) };
  });
}

export async function getGate(db: Database, id: string): Promise<GateResponse> {
  checkPlanId(id);
  const [plan] = await db.select().from(plans).where(eq(plans.id, id));
  if (!plan) throw notFound(`Plan "${id}"`);
  const reviews = await db.select().from(planReviews).where(eq(planReviews.planId, id)).orderBy(desc(planReviews.id));
  return {
    id,
    status: plan.status as PlanStatus,
    revision: plan.headRevision,
    content_hash: plan.headContentHash,
    approvals_required: requiredApprovals(),
    reviews: reviews.map(toReview),
  };
}

/**
 * What an executor may run: the head revision, only while it carries the required
 * approvals. Read in one transaction so the plan, its hash and its approvals agree.
 */
export async function getApprovedPlan(db: Database, id: string): Promise<z.infer<typeof ApprovedResponse>> {
  return db.transaction(async (tx) => {
    checkPlanId(id);
    const [plan] = await tx.select().from(plans).where(eq(plans.id, id));
    if (!plan) throw notFound(`Plan "${id}"`);
    const approvals = await liveApprovals(tx, id, plan.headRevision);
    const required = requiredApprovals();
    // Both, not either: the status is the gate's verdict and the approvals are its evidence;
    // a change to the required count must not turn an unfinished review into a hand-off.
    if (plan.status !== 'approved' || approvals.length < required) {
      const [lastApproval] = await tx
        .select()
        .from(planReviews)
        .where(and(eq(planReviews.planId, id), eq(planReviews.decision, 'approved')))
        .orderBy(desc(planReviews.id))
        .limit(1);
      const extra = { status: plan.status, head_revision: plan.headRevision, approvals: approvals.length, approvals_required: required };
      if (lastApproval && lastApproval.revision !== plan.headRevision) {
        throw new AppError(
          'stale',
          409,
          `Revision ${lastApproval.revision} was approved, but revision ${plan.headRevision} has been saved since; it needs its own approval.`,
          undefined,
          { ...extra, reason: 'stale', approved_revision: lastApproval.revision },
        );
      }
      throw new AppError(
        'not_approved',
        409,
        `Revision ${plan.headRevision} has ${approvals.length} of ${required} required approval${required === 1 ? '' : 's'} (status: ${plan.status.replace('_', ' ')}).`,
        undefined,
        { ...extra, reason: 'not_approved' },
      );
    }
    const [head] = await tx
      .select()
      .from(planRevisions)
      .where(and(eq(planRevisions.planId, id), eq(planRevisions.revision, plan.headRevision)));
    return {
      revision: head.revision,
      content_hash: head.contentHash,
      plan: PlanDocument.parse(head.body).plan,
      approvals: approvals.map(toReview),
    };
  });
}

/** The newest revision that was ever approved (superseded or not), for "diff since last approval". */
export async function lastApprovedRevision(db: Database, id: string): Promise<number | null> {
  const [row] = await db
    .select({ revision: planReviews.revision })
    .from(planReviews)
    .where(and(eq(planReviews.planId, id), eq(planReviews.decision, 'approved')))
    .orderBy(desc(planReviews.revision))
    .limit(1);
  return row?.revision ?? null;
}

export async function reviewQueue(db: Database) {
  return db
    .select({ id: plans.id, title: plans.title, revision: plans.headRevision, content_hash: plans.headContentHash, submitted_by: plans.submittedBy, updated_at: plans.updatedAt })
    .from(plans)
    .where(inArray(plans.status, ['in_review']))
    .orderBy(asc(plans.updatedAt));
}

export async function planAudit(db: Database, id: string) {
  checkPlanId(id);
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, id));
  if (!plan) throw notFound(`Plan "${id}"`);
  return (await listPlanAudit(db, id)).map(auditEventOf);
}
