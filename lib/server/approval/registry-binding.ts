import 'server-only';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ResourceSnapshot, diffSnapshots, resolveTargets, type ResourceChange } from '@/lib/approval/approved-resources';
import type { Registry } from '@/lib/registry';
import { appendAudit } from '../audit/audit-log';
import type { Database } from '../platform/db/client';
import { planReviews, plans } from '../platform/db/schema';
import { emitWebhookEvent } from '../webhooks/events';
import { notifyApprovalsVoided } from '../inbox/approval-voided';

// An approval binds the registry resources its plan routes to (lib/approval/approved-
// resources). This is the server side of that binding: voiding approvals a registry write
// made stale, and telling people which resources changed.

type ReviewRow = typeof planReviews.$inferSelect;

/** What changed in the registry since `review` bound its resources; null when it bound none. */
export function resourceChangesSince(review: Pick<ReviewRow, 'resources'>, registry: Registry): ResourceChange[] | null {
  const approved = ResourceSnapshot.safeParse(review.resources);
  if (!approved.success) return null;
  return diffSnapshots(approved.data, resolveTargets(approved.data.targets, registry));
}

/**
 * Voids the standing approvals whose registry resources changed: called inside every
 * registry write's transaction, with the registry as it now is, before the write's own
 * audit event. Plan rows are locked first, all at once and in id order, as saves and
 * decisions lock a plan row before the audit chain: so the two never wait on each other
 * in a circle. Plans none of whose approved resources changed are left alone.
 */
export async function voidApprovalsOnRegistryChange(tx: Database, registry: Registry, actor: string): Promise<string[]> {
  const standing = await tx
    .select()
    .from(planReviews)
    .where(and(eq(planReviews.decision, 'approved'), isNull(planReviews.supersededAt)))
    .orderBy(asc(planReviews.id));
  const stale = standing
    .map((review) => ({ review, changes: resourceChangesSince(review, registry) }))
    .filter(({ changes }) => changes === null || changes.length > 0);
  if (!stale.length) return [];
  const planIds = [...new Set(stale.map(({ review }) => review.planId))].sort();
  await tx.select({ id: plans.id }).from(plans).where(inArray(plans.id, planIds)).orderBy(asc(plans.id)).for('update');
  const voidedStale: typeof stale = [];
  for (const { review, changes } of stale) {
    const [voided] = await tx
      .update(planReviews)
      .set({ supersededAt: sql`clock_timestamp()`, supersededReason: 'registry_changed' })
      .where(and(eq(planReviews.id, review.id), isNull(planReviews.supersededAt)))
      .returning({ id: planReviews.id });
    // A save that committed meanwhile superseded it already, with its own event.
    if (!voided) continue;
    voidedStale.push({ review, changes });
    await appendAudit(tx, {
      kind: 'superseded',
      actor,
      planId: review.planId,
      revision: review.revision,
      contentHash: review.contentHash,
      detail: { review_id: review.id, reviewer: review.reviewer, by_registry_change: (changes ?? []).map(({ kind, key, change }) => ({ kind, key, change })) },
    });
  }
  await tx
    .update(plans)
    .set({ status: 'draft', submittedBy: null })
    .where(and(inArray(plans.id, planIds), inArray(plans.status, ['approved', 'in_review'])));
  for (const planId of planIds) {
    const voided = voidedStale.filter(({ review }) => review.planId === planId);
    if (!voided.length) continue;
    await emitWebhookEvent(tx, {
      event: 'approval.stale',
      planId,
      actor,
      detail: {
        reason: 'registry_changed',
        reviews: voided.map(({ review }) => ({ review_id: review.id, reviewer: review.reviewer, revision: review.revision })),
        resources: voided.flatMap(({ changes }) => (changes ?? []).map(({ kind, key, change }) => ({ kind, key, change }))),
      },
    });
    await notifyApprovalsVoided(tx, {
      planId,
      actor,
      voided: voided.map(({ review }) => review),
      reason: { kind: 'registry_changed', resources: [...new Set(voided.flatMap(({ changes }) => (changes ?? []).map(({ kind, key }) => `${kind}/${key}`)))] },
    });
  }
  return planIds;
}

export interface RegistryNotice {
  /** The revision whose approval the registry change voided. */
  approvedRevision: number;
  changes: ResourceChange[];
}

/** The plan's newest approval, standing or voided. */
export async function newestApproval(db: Database, planId: string): Promise<ReviewRow | undefined> {
  const [row] = await db
    .select()
    .from(planReviews)
    .where(and(eq(planReviews.planId, planId), eq(planReviews.decision, 'approved')))
    .orderBy(desc(planReviews.id))
    .limit(1);
  return row;
}

/**
 * When the head's content was approved and then a registry change voided that approval:
 * which resources changed. Null otherwise. For the plan's pages, which say why it is back
 * in draft, and for the hand-off's 409.
 */
export async function registryNotice(db: Database, planId: string, registry: Registry): Promise<RegistryNotice | null> {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  if (!plan || plan.status === 'approved') return null;
  const last = await newestApproval(db, planId);
  if (!last || last.supersededReason !== 'registry_changed' || last.contentHash !== plan.headContentHash) return null;
  return { approvedRevision: last.revision, changes: resourceChangesSince(last, registry) ?? [] };
}

/**
 * The registry resources the head routes to against those the newest approval (standing or
 * not) bound: what a reviewer must look at besides the plan's own diff. Null when the plan
 * was never approved with bound resources.
 */
export async function resourceChangesSinceLastApproval(db: Database, planId: string, current: ResourceSnapshot): Promise<RegistryNotice | null> {
  const last = await newestApproval(db, planId);
  const approved = ResourceSnapshot.safeParse(last?.resources);
  if (!last || !approved.success) return null;
  return { approvedRevision: last.revision, changes: diffSnapshots(approved.data, current) };
}

// Registry writes hold this lock exclusively and decisions hold it shared, so a decision
// binds the registry either wholly before a write or wholly after it, never a version the
// write's voiding step cannot see.
const REGISTRY_LOCK_KEY = 7_316_011;

export async function lockRegistryForWrite(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${REGISTRY_LOCK_KEY})`);
}

export async function lockRegistryForDecision(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${REGISTRY_LOCK_KEY})`);
}
