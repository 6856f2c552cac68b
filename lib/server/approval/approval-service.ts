import 'server-only';
import { and, asc, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { ApprovedResponse, DecisionRequest, GateResponse, Review, SubmitRequest } from '@/lib/api/gate-schemas';
import type { PlanStatus } from '@/lib/api/schemas';
import { ResourceSnapshot, diffSnapshots, resourcesHash, snapshotResources, type ResourceChange } from '@/lib/approval/approved-resources';
import { checkDecision, checkSubmit, statusAfter, type Decision, type GateState, type Refusal } from '@/lib/approval/gate';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { CURRENT_SCHEMA_VERSION, documentSchema, readStoredDocument, type PlanDocument } from '@/lib/plan';
import { ValidationResult, validatePlanAsync } from '@/lib/validate';
import { z } from 'zod';
import type { PageQuery } from '@/lib/api/list-schemas';
import { TimestampKey, decodeCursor, encodeCursor, pageOf, timestampKey } from '../platform/db/page-cursor';
import { appendAudit, auditEventOf, listPlanAudit, verifyPlanRevision } from '../audit/audit-log';
import { reviewDigest } from '../audit/digests';
import type { Principal } from '../auth/principal';
import type { Database } from '../platform/db/client';
import { dryRuns, planReviews, plans } from '../platform/db/schema';
import { parseJsonColumn } from '../platform/db/json-column';
import { getRegistry } from '../registry/registry-service';
import { requiredApprovals } from './required-approvals';
import { AppError, notFound, type ErrorStatus } from '../platform/errors';
import { hashVersionOf, serverContentHash } from '../plans/document-hashes';
import { findRevision } from '../plans/plan-repository';
import { checkPlanId, withTitleIssue } from '../plans/plan-service';
import { recentEditors } from './recent-editors';
import { accountTies } from '../auth/account-ties';
import { lockRegistryForDecision, newestApproval, registryNotice } from './registry-binding';
import { emitWebhookEvent } from '../webhooks/events';
import { notifyApprovalsVoided } from '../inbox/approval-voided';
import { notify } from '../inbox/notify';
import { markReviewRequestsDone } from '../inbox/inbox-service';
import { acceptDecisionSignature, recordDecisionSignature, reviewSignatures, signedDecisionsRequired } from '../passkeys/decision-signatures';
import type { RelyingParty } from '../passkeys/relying-party';
import { checkRequestedReviewers, previousReviewers, recordReviewRequests, requestedReviewers } from './requested-reviewers';

// Every gate transition is one transaction that first locks the plan row. Saves take the
// same lock (their guarded UPDATE), so a decision and a new revision never interleave:
// either the decision lands on the head and the save then supersedes it, or the save
// lands first and the decision is refused as stale.

type ReviewRow = typeof planReviews.$inferSelect;

const DECISION_EVENTS = { approved: 'plan.approved', changes_requested: 'plan.changes_requested', rejected: 'plan.rejected' } as const;
const DECISION_VERBS = { approved: 'approved', changes_requested: 'requested changes to', rejected: 'rejected' } as const;

async function planTitle(tx: Database, id: string): Promise<string> {
  const [row] = await tx.select({ title: plans.title }).from(plans).where(eq(plans.id, id));
  return row?.title ?? id;
}

function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    revision: row.revision,
    content_hash: row.contentHash,
    decision: row.decision as Decision,
    reviewer: row.reviewer,
    comment: row.comment,
    validation: parseJsonColumn(ValidationResult, row.validation, { table: 'plan_reviews', column: 'validation', row: row.id }),
    resources_hash: row.resourcesHash,
    created_at: row.createdAt.toISOString(),
    superseded_at: row.supersededAt?.toISOString() ?? null,
    superseded_reason: row.supersededReason as Review['superseded_reason'],
  };
}

const REFUSAL_STATUS: Record<Refusal['code'], { status: number; code: 'conflict' | 'stale' | 'unprocessable' | 'forbidden' }> = {
  invalid_state: { status: 409, code: 'conflict' },
  already_decided: { status: 409, code: 'conflict' },
  stale: { status: 409, code: 'stale' },
  has_errors: { status: 422, code: 'unprocessable' },
  four_eyes: { status: 403, code: 'forbidden' },
  not_a_person: { status: 403, code: 'forbidden' },
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
  throw new AppError(code, status as ErrorStatus<typeof code>, refusal.message, details, {
    reason: refusal.code,
    status: state.status,
    head_revision: state.headRevision,
    head_content_hash: state.headContentHash,
  });
}

interface Locked {
  state: GateState;
  validation: ValidationResult;
  /** The registry resources the head revision routes to, as they are now. */
  resources: ResourceSnapshot;
}

/**
 * What a reader already worked out from one revision off this thread (the review page's
 * compute job): used by readGate when that revision is still the head.
 */
export interface HeadFacts {
  revision: number;
  validation: ValidationResult;
  resources: ResourceSnapshot;
}

/** The head's validation and resources, worked out here from its stored document. */
async function headFacts(tx: Database, plan: typeof plans.$inferSelect): Promise<HeadFacts> {
  const head = await findRevision(tx, plan.id, plan.headRevision);
  const parsed = head ? readStoredDocument(head.body, head.schemaVersion, documentSchema) : null;
  if (!parsed?.success) throw integrity(`revision ${plan.headRevision} is missing or its stored body is not a valid plan document`);
  const document = parsed.data;
  const registry = await getRegistry(tx);
  const validation = await validatePlanAsync(document.plan, registry, document.subgraphs);
  return { revision: plan.headRevision, validation, resources: snapshotResources(document.plan.planned_tasks, registry) };
}

/**
 * The gate's inputs; `lock` takes the plan row lock for a transition. `given` is the head's
 * validation and resources when the caller has them; they are worked out again if the head
 * has moved on since.
 */
export async function readGate(tx: Database, id: string, lock = false, given?: HeadFacts): Promise<Locked> {
  checkPlanId(id);
  const query = tx.select().from(plans).where(eq(plans.id, id));
  const [plan] = lock ? await query.for('update') : await query;
  if (!plan) throw notFound(`Plan "${id}"`);
  const facts = given?.revision === plan.headRevision ? given : await headFacts(tx, plan);
  const validation = withTitleIssue(facts.validation, plan.title);
  const { resources } = facts;
  const approvals = await liveApprovals(tx, id, plan.contentRevision);
  const editors = await recentEditors(tx, plan, resources);
  const ties = await accountTies(tx, [...editors.authors, ...editors.resourceEditors, ...(plan.submittedBy ? [plan.submittedBy] : [])]);
  return {
    validation,
    resources,
    state: {
      status: plan.status as PlanStatus,
      headRevision: plan.headRevision,
      headContentHash: plan.headContentHash,
      contentRevision: plan.contentRevision,
      errorCount: validation.issues.filter((issue) => issue.severity === 'error').length,
      recentAuthors: editors.authors,
      resourceEditors: editors.resourceEditors,
      submittedBy: plan.submittedBy,
      accountTies: ties,
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

/**
 * Approvals that still stand for the content of `contentRevision`: a content change
 * supersedes every review, so the unsuperseded ones are all on this content (a reviewer
 * may have claimed a later, layout-only revision of it).
 */
function liveApprovals(db: Database, id: string, contentRevision: number): Promise<ReviewRow[]> {
  return db
    .select()
    .from(planReviews)
    .where(
      and(
        eq(planReviews.planId, id),
        gte(planReviews.revision, contentRevision),
        eq(planReviews.decision, 'approved'),
        isNull(planReviews.supersededAt),
      ),
    )
    .orderBy(asc(planReviews.id));
}

export async function submitForReview(db: Database, id: string, claim: SubmitRequest, principal: Principal) {
  return db.transaction((tx) => submitIn(tx, id, claim, principal, { reviewers: claim.reviewers ?? [], again: false }));
}

/**
 * "Re-request review": submits the head again and asks everyone who reviewed the plan before
 * (asked by name, or who decided on it) and may still review it, each told in their inbox.
 */
export async function reRequestReview(db: Database, id: string, claim: { revision: number; content_hash: string }, principal: Principal) {
  return db.transaction(async (tx) => {
    checkPlanId(id);
    const reviewers = await previousReviewers(tx, id, principal.username);
    if (!reviewers.length) {
      throw new AppError('unprocessable', 422, 'Nobody has reviewed this plan yet, so there is no one to ask again; submit it and choose reviewers instead. Nothing was submitted.');
    }
    return submitIn(tx, id, claim, principal, { reviewers, again: true });
  });
}

async function submitIn(tx: Database, id: string, claim: SubmitRequest, principal: Principal, { reviewers, again }: { reviewers: string[]; again: boolean }) {
  const { state, validation } = await readGate(tx, id, true);
  const refusal = checkSubmit(
    state,
    claim.revision !== undefined ? { revision: claim.revision, contentHash: claim.content_hash ?? state.headContentHash } : undefined,
  );
  if (refusal) refuse(refusal, validation, state);
  // Re-requested reviewers were drawn from those who may still be asked.
  if (!again) await checkRequestedReviewers(tx, reviewers, principal.username);
  await tx.update(plans).set({ status: 'in_review', submittedBy: principal.username }).where(eq(plans.id, id));
  await recordReviewRequests(tx, { planId: id, revision: state.headRevision, reviewers, requestedBy: principal.username });
  await appendAudit(tx, {
    kind: 'submitted',
    actor: principal.username,
    planId: id,
    revision: state.headRevision,
    contentHash: state.headContentHash,
    ...(reviewers.length ? { detail: { reviewers, ...(again ? { re_requested: true } : {}) } } : {}),
  });
  await emitWebhookEvent(tx, { event: 'plan.submitted', planId: id, actor: principal.username, detail: { reviewers } });
  await notify(tx, {
    recipients: reviewers,
    kind: 'review_requested',
    planId: id,
    revision: state.headRevision,
    actor: principal.username,
    summary: `${principal.username} asked you to review r${state.headRevision} of “${await planTitle(tx, id)}”${again ? ' again' : ''}.`,
  });
  return { id, status: 'in_review' as const, revision: state.headRevision, content_hash: state.headContentHash };
}

/**
 * Records a decision on the head revision. With `request.signature` (checked against the
 * relying party the request addressed) it is passkey-signed; without one it is refused
 * while PLANGATE_REQUIRE_SIGNED_APPROVALS is on.
 */
export async function decide(db: Database, id: string, decision: Decision, request: DecisionRequest, principal: Principal, relyingParty?: RelyingParty) {
  return db.transaction(async (tx) => {
    await lockRegistryForDecision(tx);
    const { state, validation, resources } = await readGate(tx, id, true);
    const refusal = checkDecision(state, decision, principal, { revision: request.revision, contentHash: request.content_hash });
    if (refusal) refuse(refusal, validation, state);
    const boundHash = resourcesHash(resources);
    if (request.resources_hash !== undefined && request.resources_hash !== boundHash) {
      throw new AppError('stale', 409, 'The registry resources this plan routes to changed since you loaded the review. Reload and review them again.', undefined, {
        reason: 'registry_changed',
        resources_hash: boundHash,
      });
    }
    const signed = await acceptDecisionSignature(
      tx,
      principal,
      request.signature,
      { plan_id: id, revision: state.headRevision, content_hash: state.headContentHash, resources_hash: boundHash, decision },
      relyingParty,
    );
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
        resources,
        resourcesHash: boundHash,
      })
      .returning();
    if (signed) await recordDecisionSignature(tx, { reviewId: review.id }, signed);
    if (decision !== 'approved') {
      // An objection voids the approvals already given to this revision: a later approval
      // must not add up with them and override it.
      const voided = await tx
        .update(planReviews)
        .set({ supersededAt: sql`clock_timestamp()`, supersededReason: 'objection' })
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
      // The submitter hears of the decision itself, below.
      await notifyApprovalsVoided(tx, { planId: id, actor: principal.username, voided, reason: { kind: 'objection', decision }, tellSubmitter: false });
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
      detail: {
        review_id: review.id,
        review_hash: reviewDigest(review),
        resources_hash: boundHash,
        comment: request.comment,
        status,
        dry_run_id: await latestDryRunId(tx, id, state.headRevision),
        ...(signed ? { passkey: signed.kid } : {}),
      },
    });
    // The comment stays with the decision (the review row, its audit event and inbox item);
    // it opens no thread, so a verdict is not left as an open question. The decider's own
    // requests to review this plan are answered.
    await markReviewRequestsDone(tx, principal.username, id);
    await emitWebhookEvent(tx, {
      event: DECISION_EVENTS[decision],
      planId: id,
      actor: principal.username,
      detail: { review_id: review.id, comment: request.comment, approvals, approvals_required: state.requiredApprovals },
    });
    const progress = decision === 'approved' && status !== 'approved' ? ` (${approvals} of ${state.requiredApprovals} approvals)` : '';
    await notify(tx, {
      recipients: [...(state.submittedBy ? [state.submittedBy] : []), ...state.recentAuthors],
      kind: 'decision',
      planId: id,
      revision: state.headRevision,
      actor: principal.username,
      summary: `${principal.username} ${DECISION_VERBS[decision]} r${state.headRevision} of “${await planTitle(tx, id)}”${progress}${request.comment ? `: ${request.comment}` : '.'}`,
    });
    return { id, status, revision: state.headRevision, content_hash: state.headContentHash, review: toReview(review) };
  });
}

/** The gate without its resources hash: status, reviews and requested reviewers, read without the plan's tasks. */
export async function getGateReviews(db: Database, id: string): Promise<Omit<GateResponse, 'resources_hash'>> {
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
    requested_reviewers: await requestedReviewers(db, id, plan.contentRevision),
  };
}

export async function getGate(db: Database, id: string): Promise<GateResponse> {
  const gate = await getGateReviews(db, id);
  const head = await findRevision(db, id, gate.revision);
  const document = head ? readStoredDocument(head.body, head.schemaVersion, documentSchema) : { success: false as const };
  return { ...gate, resources_hash: document.success ? resourcesHash(snapshotResources(document.data.plan.planned_tasks, await getRegistry(db))) : null };
}

function integrity(message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('integrity', 409, `The approved plan failed its integrity check: ${message}. Nothing should run it; an admin should run "plangate audit verify".`, undefined, {
    reason: 'integrity',
    ...extra,
  });
}

function registryChanged(approvedRevision: number, changes: ResourceChange[], extra: Record<string, unknown>): AppError {
  const named = changes.map((c) => `${c.kind}/${c.key} (${c.change})`);
  return new AppError(
    'stale',
    409,
    `Revision ${approvedRevision} was approved, but registry resources it routes to have changed since: ${named.slice(0, 10).join(', ') || 'the approval predates resource binding'}${named.length > 10 ? ` and ${named.length - 10} more` : ''}. It needs a new review.`,
    undefined,
    { ...extra, reason: 'registry_changed', approved_revision: approvedRevision, resources: changes.map(({ kind, key, change }) => ({ kind, key, change })) },
  );
}

function unsignedNote(unsigned: number): string {
  return unsigned ? ` ${unsigned} unsigned approval${unsigned === 1 ? ' does' : 's do'} not count while PLANGATE_REQUIRE_SIGNED_APPROVALS is on.` : '';
}

/**
 * What an executor may run: the head revision's document and the registry resources it
 * routes to, only while they carry the required approvals, both are unchanged since, and
 * the stored body still hashes to what was approved and is recorded in the signed audit
 * chain. Read in one transaction so the plan, its hash and its approvals agree.
 */
export async function getApprovedPlan(db: Database, id: string): Promise<z.infer<typeof ApprovedResponse>> {
  return db.transaction(async (tx) => {
    checkPlanId(id);
    const [plan] = await tx.select().from(plans).where(eq(plans.id, id));
    if (!plan) throw notFound(`Plan "${id}"`);
    const live = await liveApprovals(tx, id, plan.contentRevision);
    const signatures = await reviewSignatures(tx, live.map((row) => row.id));
    // While signatures are required, an approval without one (given before, say) does not count.
    const approvals = signedDecisionsRequired() ? live.filter((row) => signatures.has(row.id)) : live;
    const required = requiredApprovals();
    const extra = { status: plan.status, head_revision: plan.headRevision, approvals: approvals.length, approvals_required: required };
    // Both, not either: the status is the gate's verdict and the approvals are its evidence;
    // a change to the required count must not turn an unfinished review into a hand-off.
    if (plan.status !== 'approved' || approvals.length < required) {
      const lastApproval = await newestApproval(tx, id);
      const notice = await registryNotice(tx, id, await getRegistry(tx));
      if (notice) throw registryChanged(notice.approvedRevision, notice.changes, extra);
      if (lastApproval && lastApproval.revision < plan.contentRevision) {
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
        `Revision ${plan.headRevision} has ${approvals.length} of ${required} required approval${required === 1 ? '' : 's'} (status: ${plan.status.replace('_', ' ')}).${unsignedNote(live.length - approvals.length)}`,
        undefined,
        { ...extra, reason: 'not_approved' },
      );
    }

    const head = await findRevision(tx, id, plan.headRevision);
    // The hash is recomputed from the stored body, never taken from a column: a body edited
    // in the database after approval is refused, not handed over.
    if (!head) throw integrity(`revision ${plan.headRevision} is missing`, { revision: plan.headRevision });
    const raw = (head.body ?? {}) as Partial<Record<'plan' | 'job' | 'subgraphs', unknown>>;
    // Read through the migrations: a revision written under an older schema version is
    // validated and bound to its resources as today's schema reads it.
    const document = readStoredDocument(head.body, head.schemaVersion, documentSchema);
    if (!document.success) throw integrity(`revision ${head.revision}'s stored body is not a valid plan document (${document.error})`);
    const { plan: taskData, job, subgraphs } = document.data;
    // The content hash covers the body as written. Under today's schema version the parsed
    // document is that body and is checked too; a migrated one differs from it by design,
    // so the body as written is what is verified and handed over, and the executor's hash
    // of what it receives still matches content_hash.
    const asWritten = head.schemaVersion === CURRENT_SCHEMA_VERSION;
    await yieldToEventLoop();
    const rawHash = serverContentHash({ plan: raw.plan as never, job: raw.job as never, subgraphs: raw.subgraphs as never }, hashVersionOf(head));
    await yieldToEventLoop();
    const recomputed = asWritten ? serverContentHash({ plan: taskData, job, subgraphs }, hashVersionOf(head)) : rawHash;
    await yieldToEventLoop();
    if (recomputed !== head.contentHash || rawHash !== head.contentHash || head.contentHash !== plan.headContentHash) {
      throw integrity(`revision ${head.revision}'s stored body no longer hashes to ${head.contentHash}`, { revision: head.revision });
    }
    const foreign = approvals.find((approval) => approval.contentHash !== head.contentHash);
    if (foreign) throw integrity(`review ${foreign.id} approved different content (${foreign.contentHash})`);

    const newest = approvals[approvals.length - 1];
    const registry = await getRegistry(tx);
    const snapshot = ResourceSnapshot.safeParse(newest.resources);
    if (!snapshot.success) throw registryChanged(newest.revision, [], extra);
    if (resourcesHash(snapshot.data) !== newest.resourcesHash || approvals.some((a) => a.resourcesHash !== newest.resourcesHash)) {
      throw integrity('the approved resource snapshot does not match its hash');
    }
    const bound = snapshotResources(taskData.planned_tasks, registry);
    if (bound.targets.join('\n') !== snapshot.data.targets.join('\n')) throw integrity('the approved resources are not the ones this revision routes to');
    const changes = diffSnapshots(snapshot.data, bound);
    if (changes.length) throw registryChanged(newest.revision, changes, extra);

    const chain = await verifyPlanRevision(tx, id, head.revision);
    if (!chain.ok) throw integrity(`the audit trail does not vouch for it (${chain.reason})`, { problem: chain.problem });

    return {
      plan_id: id,
      revision: head.revision,
      content_hash: head.contentHash,
      hash_version: hashVersionOf(head),
      document: asWritten ? { plan: taskData, job, subgraphs } : ({ plan: raw.plan, job: raw.job, subgraphs: raw.subgraphs } as Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>),
      resources: { hash: newest.resourcesHash!, ...snapshot.data },
      approvals: approvals.map((row) => ({ ...toReview(row), signature: signatures.get(row.id) ?? null })),
    };
  });
}

/** Plans in review, oldest first (ties by id), after the cursor's (updated_at, id). */
async function reviewQueueRows(db: Database, query: PageQuery) {
  const list = 'reviews';
  const where = [inArray(plans.status, ['in_review'])];
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, list, z.tuple([TimestampKey, z.string().max(200)]));
    where.push(sql`(${plans.updatedAt}, ${plans.id}) > (${at}::timestamptz, ${id})`);
  }
  const rows = await db
    .select({
      id: plans.id,
      title: plans.title,
      revision: plans.headRevision,
      content_hash: plans.headContentHash,
      submitted_by: plans.submittedBy,
      updated_at: plans.updatedAt,
      key: timestampKey(plans.updatedAt),
    })
    .from(plans)
    .where(and(...where))
    .orderBy(asc(plans.updatedAt), asc(plans.id))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (last) => encodeCursor(list, [last.key, last.id]));
  return { items: page.items.map(({ key: _key, ...row }) => row), next_cursor: page.next_cursor };
}

/** One page of the review queue for the reviews page, its dates as dates. */
export async function reviewQueue(db: Database, query: PageQuery) {
  return reviewQueueRows(db, query);
}

/** One page of the review queue in the REST shape (see PageQuery). */
export async function reviewQueuePage(db: Database, query: PageQuery) {
  const page = await reviewQueueRows(db, query);
  return { plans: page.items.map((plan) => ({ ...plan, updated_at: plan.updated_at.toISOString() })), next_cursor: page.next_cursor };
}

export async function planAudit(db: Database, id: string) {
  checkPlanId(id);
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, id));
  if (!plan) throw notFound(`Plan "${id}"`);
  return (await listPlanAudit(db, id)).map(auditEventOf);
}

