import 'server-only';
import { and, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { ResourceSnapshot } from '@/lib/approval/approved-resources';
import type { Database } from '../platform/db/client';
import { auditEvents, planRevisions } from '../platform/db/schema';

// Four-eyes needs to know who shaped what is about to be approved: everyone who wrote a
// revision of the plan, and everyone who changed a registry resource it routes to, since
// the plan was last fully approved. Partial approvals and approvals voided before the
// required count was reached do not reset it.

export interface RecentEditors {
  /** Authors of revisions since the last full approval, the current content's author always among them. */
  authors: string[];
  /** Who changed a registry resource the plan routes to since then. */
  resourceEditors: string[];
}

/** The plan's newest `approved` event that made it approved (not a partial approval), before `beforeSeq` if given. */
async function lastFullApproval(db: Database, planId: string, beforeSeq?: number): Promise<{ seq: number; revision: number } | null> {
  const [row] = await db
    .select({ seq: auditEvents.seq, revision: auditEvents.revision })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.planId, planId),
        eq(auditEvents.kind, 'approved'),
        sql`${auditEvents.detail}->>'status' = 'approved'`,
        beforeSeq === undefined ? undefined : lt(auditEvents.seq, beforeSeq),
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  return row ? { seq: row.seq, revision: row.revision ?? 0 } : null;
}

async function createdSeq(db: Database, planId: string): Promise<number> {
  const [row] = await db
    .select({ seq: auditEvents.seq })
    .from(auditEvents)
    .where(and(eq(auditEvents.planId, planId), eq(auditEvents.kind, 'created')))
    .limit(1);
  return row?.seq ?? 0;
}

/** Whether a registry_changed event touched a resource behind one of `snapshot`'s targets (any, when the snapshot is unknown). */
function touches(detail: Record<string, unknown>, snapshot: ResourceSnapshot | null, boundKeys: Set<string>): boolean {
  // A whole-registry import may have changed any of them.
  if (!snapshot || (detail.action !== 'put' && detail.action !== 'deleted')) return true;
  const key = String(detail.key ?? '').toLowerCase();
  return boundKeys.has(`${String(detail.resource_kind)}/${key}`) || snapshot.targets.some((target) => target.slice(target.indexOf(':') + 1) === key);
}

/** Authors of the plan's revisions in (floor, upTo]. */
async function authorsBetween(db: Database, planId: string, floor: number, upTo?: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ author: planRevisions.author })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, planId), gt(planRevisions.revision, floor), upTo === undefined ? undefined : lte(planRevisions.revision, upTo)));
  return rows.map((row) => row.author);
}

/** Who changed a registry resource behind `snapshot` in the audit chain's (sinceSeq, untilSeq]. */
async function resourceEditorsBetween(db: Database, snapshot: ResourceSnapshot | null, sinceSeq: number, untilSeq?: number): Promise<string[]> {
  const changes = await db
    .select({ actor: auditEvents.actor, detail: auditEvents.detail })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.kind, 'registry_changed'),
        gt(auditEvents.seq, sinceSeq),
        untilSeq === undefined ? undefined : lte(auditEvents.seq, untilSeq),
        inArray(sql`${auditEvents.detail}->>'action'`, ['put', 'deleted', 'replaced']),
      ),
    );
  const boundKeys = new Set(
    Object.entries(snapshot?.definitions ?? {}).flatMap(([kind, list]) =>
      (list as Array<{ id?: string; name?: string }>).map((resource) => `${kind}/${String(resource.id ?? resource.name).toLowerCase()}`),
    ),
  );
  return [...new Set(changes.filter((change) => touches(change.detail, snapshot, boundKeys)).map((change) => change.actor))];
}

export async function recentEditors(
  db: Database,
  plan: { id: string; contentRevision: number },
  snapshot: ResourceSnapshot,
): Promise<RecentEditors> {
  const last = await lastFullApproval(db, plan.id);
  // A registry change voids an approval without a new revision, so the content being
  // approved again may be the very revision last approved: its author still counts.
  const floor = Math.min(last?.revision ?? 0, plan.contentRevision - 1);
  const sinceSeq = last?.seq ?? (await createdSeq(db, plan.id));
  return {
    authors: await authorsBetween(db, plan.id, floor),
    resourceEditors: await resourceEditorsBetween(db, snapshot, sinceSeq),
  };
}

/**
 * Who shaped what a run runs: the same people four-eyes kept from approving its revision.
 * The run started under the plan's newest full approval before its `run_started` event; the
 * window is from the full approval before that one up to it, as `recentEditors` saw it then.
 * Later drafts of the plan are not what runs, so their authors do not count.
 */
export async function runShapers(db: Database, run: { id: string; planId: string; revision: number }, snapshot: ResourceSnapshot | null): Promise<RecentEditors> {
  const [started] = await db
    .select({ seq: auditEvents.seq })
    .from(auditEvents)
    .where(and(eq(auditEvents.planId, run.planId), eq(auditEvents.kind, 'run_started'), sql`${auditEvents.detail}->>'run_id' = ${run.id}`))
    .limit(1);
  const approving = await lastFullApproval(db, run.planId, started?.seq);
  const previous = approving ? await lastFullApproval(db, run.planId, approving.seq) : null;
  const [content] = await db
    .select({ revision: planRevisions.revision })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, run.planId), lte(planRevisions.revision, run.revision), eq(planRevisions.layoutOnly, false)))
    .orderBy(desc(planRevisions.revision))
    .limit(1);
  const floor = Math.min(previous?.revision ?? 0, (content?.revision ?? 1) - 1);
  const sinceSeq = previous?.seq ?? (await createdSeq(db, run.planId));
  return {
    authors: await authorsBetween(db, run.planId, floor, run.revision),
    resourceEditors: await resourceEditorsBetween(db, snapshot, sinceSeq, approving?.seq ?? started?.seq),
  };
}
