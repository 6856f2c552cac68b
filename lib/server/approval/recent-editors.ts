import 'server-only';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { ResourceSnapshot } from '@/lib/approval/approved-resources';
import type { Database } from '../db/client';
import { auditEvents, planRevisions } from '../db/schema';

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

/** The plan's newest `approved` event that made it approved (not a partial approval). */
async function lastFullApproval(db: Database, planId: string): Promise<{ seq: number; revision: number } | null> {
  const [row] = await db
    .select({ seq: auditEvents.seq, revision: auditEvents.revision })
    .from(auditEvents)
    .where(and(eq(auditEvents.planId, planId), eq(auditEvents.kind, 'approved'), sql`${auditEvents.detail}->>'status' = 'approved'`))
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

/** Whether a registry_changed event touched a resource behind one of `snapshot`'s targets. */
function touches(detail: Record<string, unknown>, snapshot: ResourceSnapshot, boundKeys: Set<string>): boolean {
  // A whole-registry import may have changed any of them.
  if (detail.action !== 'put' && detail.action !== 'deleted') return true;
  const key = String(detail.key ?? '').toLowerCase();
  return boundKeys.has(`${String(detail.resource_kind)}/${key}`) || snapshot.targets.some((target) => target.slice(target.indexOf(':') + 1) === key);
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
  const authors = await db
    .selectDistinct({ author: planRevisions.author })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, plan.id), gt(planRevisions.revision, floor)));
  const sinceSeq = last?.seq ?? (await createdSeq(db, plan.id));
  const changes = await db
    .select({ actor: auditEvents.actor, detail: auditEvents.detail })
    .from(auditEvents)
    .where(and(eq(auditEvents.kind, 'registry_changed'), gt(auditEvents.seq, sinceSeq), inArray(sql`${auditEvents.detail}->>'action'`, ['put', 'deleted', 'replaced'])));
  const boundKeys = new Set(
    Object.entries(snapshot.definitions).flatMap(([kind, list]) =>
      (list as Array<{ id?: string; name?: string }>).map((resource) => `${kind}/${String(resource.id ?? resource.name).toLowerCase()}`),
    ),
  );
  return {
    authors: authors.map((row) => row.author),
    resourceEditors: [...new Set(changes.filter((change) => touches(change.detail, snapshot, boundKeys)).map((change) => change.actor))],
  };
}
