import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { auditEvents, plans } from '../platform/db/schema';
import { notify } from './notify';

// When approvals stop standing, the approvers who gave them and the person who submitted
// the plan hear of it: their sign-off no longer lets anything run. Called in the
// transaction that voided them, after the plan row was locked.

export interface VoidedApproval {
  reviewer: string;
  revision: number;
}

export type VoidReason = { kind: 'revision'; byRevision: number } | { kind: 'registry_changed'; resources: string[] } | { kind: 'objection'; decision: string };

/** Who last submitted the plan: the saving UPDATE may already have cleared `submitted_by`. */
async function lastSubmitter(tx: Database, planId: string): Promise<string | null> {
  const [row] = await tx
    .select({ actor: auditEvents.actor })
    .from(auditEvents)
    .where(and(eq(auditEvents.planId, planId), eq(auditEvents.kind, 'submitted')))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  return row?.actor ?? null;
}

function because(reason: VoidReason, actor: string): string {
  if (reason.kind === 'revision') return `${actor} saved revision ${reason.byRevision}`;
  if (reason.kind === 'objection') return `${actor} ${reason.decision === 'rejected' ? 'rejected it' : 'requested changes'}`;
  const named = reason.resources.slice(0, 5).join(', ');
  return `${actor} changed registry resources it routes to${named ? ` (${named}${reason.resources.length > 5 ? ', …' : ''})` : ''}`;
}

function listed(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export async function notifyApprovalsVoided(
  tx: Database,
  input: { planId: string; actor: string; voided: VoidedApproval[]; reason: VoidReason; tellSubmitter?: boolean },
): Promise<number> {
  if (!input.voided.length) return 0;
  const [plan] = await tx.select({ title: plans.title }).from(plans).where(eq(plans.id, input.planId));
  const submitter = input.tellSubmitter === false ? null : await lastSubmitter(tx, input.planId);
  const revisions = [...new Set(input.voided.map((v) => v.revision))].sort((a, b) => a - b);
  const approvers = [...new Set(input.voided.map((v) => v.reviewer))];
  return notify(tx, {
    recipients: [...approvers, ...(submitter ? [submitter] : [])],
    kind: 'approval_voided',
    planId: input.planId,
    revision: revisions[revisions.length - 1],
    actor: input.actor,
    summary: `The approval of “${plan?.title ?? input.planId}” r${revisions.join(', r')} by ${listed(approvers)} no longer stands: ${because(input.reason, input.actor)}.`,
  });
}
