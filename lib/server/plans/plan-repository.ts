import 'server-only';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { planReviews, planRevisions, plans } from '../db/schema';
import { appendAudit } from '../audit/audit-log';
import { emitWebhookEvent } from '../webhooks/events';
import { notifyApprovalsVoided } from '../inbox/approval-voided';
import type { PlanDocument } from '@/lib/plan';
import { CURRENT_SCHEMA_VERSION, documentSchema, readStoredDocument, type DocumentSchemaRegistry } from '@/lib/plan/migrations';
import { AppError } from '../errors';

// Data access only: callers hand in parsed, hashed documents. Every write is one
// transaction, so a plan never exists without its first revision and a head pointer
// never names a revision that was not written.

export interface NewRevision {
  document: PlanDocument;
  contentHash: string;
  /** bodyDigest(document), recorded in the audit chain. */
  bodyHash: string;
  author: string;
  message: string;
}

export type PlanRow = typeof plans.$inferSelect;
export type RevisionRow = typeof planRevisions.$inferSelect;

export async function insertPlan(db: Database, input: NewRevision & { id: string; title: string }): Promise<PlanRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(plans)
      .values({
        id: input.id,
        title: input.title,
        headRevision: 1,
        headContentHash: input.contentHash,
        // clock_timestamp, not now(): plans created in one transaction (the demo seed) still
        // get distinct times, so "newest first" is a real order.
        createdAt: sql`clock_timestamp()`,
        updatedAt: sql`clock_timestamp()`,
      })
      .returning();
    await tx.insert(planRevisions).values({
      planId: input.id,
      revision: 1,
      parentRevision: null,
      body: input.document,
      schemaVersion: CURRENT_SCHEMA_VERSION,
      contentHash: input.contentHash,
      author: input.author,
      message: input.message,
    });
    await appendAudit(tx, {
      kind: 'created',
      actor: input.author,
      planId: input.id,
      revision: 1,
      contentHash: input.contentHash,
      detail: { body_hash: input.bodyHash },
    });
    return row;
  });
}

export type SaveResult =
  | { kind: 'saved'; plan: PlanRow; layoutOnly: boolean }
  | { kind: 'conflict'; currentRevision: number }
  | { kind: 'missing' };

/**
 * Writes revision base+1 if and only if base is still the head. The guarded UPDATE is
 * the compare-and-swap: concurrent savers of one base queue on the row lock and all but
 * the first find the guard false, so exactly one wins and the rest see a conflict.
 *
 * A revision with the head's content hash only moved nodes: the plan keeps its status,
 * reviews and approvals (they bind to content, not layout). Any other revision voids them.
 */
export async function saveRevision(
  db: Database,
  input: NewRevision & { id: string; baseRevision: number; title?: string },
): Promise<SaveResult> {
  return db.transaction(async (tx) => {
    const next = input.baseRevision + 1;
    // SET expressions read the row as it was, so "same hash" compares with the old head.
    const sameContent = sql`${plans.headContentHash} = ${input.contentHash}`;
    const [row] = await tx
      .update(plans)
      .set({
        headRevision: next,
        headContentHash: input.contentHash,
        contentRevision: sql`case when ${sameContent} then ${plans.contentRevision} else ${next} end`,
        status: sql`case when ${sameContent} then ${plans.status} else 'draft' end`,
        submittedBy: sql`case when ${sameContent} then ${plans.submittedBy} else null end`,
        updatedAt: sql`clock_timestamp()`,
        ...(input.title ? { title: input.title } : {}),
      })
      .where(and(eq(plans.id, input.id), eq(plans.headRevision, input.baseRevision)))
      .returning();
    if (!row) {
      const [current] = await tx.select({ head: plans.headRevision }).from(plans).where(eq(plans.id, input.id));
      return current ? { kind: 'conflict', currentRevision: current.head } : { kind: 'missing' };
    }
    const layoutOnly = row.contentRevision !== next;
    await tx.insert(planRevisions).values({
      planId: input.id,
      revision: next,
      parentRevision: input.baseRevision,
      body: input.document,
      schemaVersion: CURRENT_SCHEMA_VERSION,
      contentHash: input.contentHash,
      author: input.author,
      message: input.message,
      layoutOnly,
    });
    await appendAudit(tx, {
      kind: 'revised',
      actor: input.author,
      planId: input.id,
      revision: next,
      contentHash: input.contentHash,
      detail: { body_hash: input.bodyHash, layout_only: layoutOnly },
    });
    if (layoutOnly) return { kind: 'saved', plan: row, layoutOnly };
    // Runs after the guarded UPDATE took the plan's row lock, so a decision committed
    // just before is seen here and superseded, never left standing on the old head.
    const superseded = await tx
      .update(planReviews)
      .set({ supersededAt: sql`clock_timestamp()`, supersededReason: 'revision' })
      .where(and(eq(planReviews.planId, input.id), isNull(planReviews.supersededAt)))
      .returning();
    for (const review of superseded.filter((r) => r.decision === 'approved')) {
      await appendAudit(tx, {
        kind: 'superseded',
        actor: input.author,
        planId: input.id,
        revision: review.revision,
        contentHash: review.contentHash,
        detail: { review_id: review.id, reviewer: review.reviewer, by_revision: next },
      });
    }
    const voided = superseded.filter((r) => r.decision === 'approved');
    if (voided.length) {
      await emitWebhookEvent(tx, {
        event: 'approval.stale',
        planId: input.id,
        actor: input.author,
        detail: { reason: 'revision', by_revision: next, reviews: voided.map((r) => ({ review_id: r.id, reviewer: r.reviewer, revision: r.revision })) },
      });
      await notifyApprovalsVoided(tx, { planId: input.id, actor: input.author, voided, reason: { kind: 'revision', byRevision: next } });
    }
    return { kind: 'saved', plan: row, layoutOnly };
  });
}

export async function findPlan(db: Database, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row;
}

export async function findRevision(db: Database, id: string, revision: number): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), eq(planRevisions.revision, revision)));
  return row;
}

/**
 * A revision's document as today's schema reads it: the stored body, migrated from the
 * schema version it was written under, then parsed. The row keeps the body as written,
 * which is what its content hash covers. A body no migration or parse accepts is an
 * integrity error naming the row, never a crash.
 */
export function revisionDocument<T = PlanDocument>(
  row: Pick<RevisionRow, 'planId' | 'revision' | 'body' | 'schemaVersion'>,
  registry: DocumentSchemaRegistry<T> = documentSchema as unknown as DocumentSchemaRegistry<T>,
): T {
  const read = readStoredDocument(row.body, row.schemaVersion, registry);
  if (read.success) return read.data;
  throw new AppError(
    'integrity',
    409,
    `plan_revisions row (plan "${row.planId}", revision ${row.revision}, schema version ${row.schemaVersion}) cannot be read: ${read.error}`,
    undefined,
    { reason: 'integrity', table: 'plan_revisions', plan_id: row.planId, revision: row.revision },
  );
}

/** findRevision with its document read through the migrations (see revisionDocument). */
export async function readRevision<T = PlanDocument>(
  db: Database,
  id: string,
  revision: number,
  registry?: DocumentSchemaRegistry<T>,
): Promise<(RevisionRow & { document: T }) | undefined> {
  const row = await findRevision(db, id, revision);
  return row && { ...row, document: revisionDocument(row, registry) };
}

export type RevisionSummary = Omit<RevisionRow, 'body' | 'schemaVersion'>;

/** What a revision list shows of each revision: everything but the (large) body. */
export const revisionSummaryColumns = {
  planId: planRevisions.planId,
  revision: planRevisions.revision,
  parentRevision: planRevisions.parentRevision,
  contentHash: planRevisions.contentHash,
  author: planRevisions.author,
  message: planRevisions.message,
  layoutOnly: planRevisions.layoutOnly,
  createdAt: planRevisions.createdAt,
};

export async function listRevisions(db: Database, id: string): Promise<RevisionSummary[]> {
  return db
    .select(revisionSummaryColumns)
    .from(planRevisions)
    .where(eq(planRevisions.planId, id))
    .orderBy(asc(planRevisions.revision));
}

export async function countPlans(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(plans);
  return row.n;
}
