import { contentHash, type PlanDocument } from '@/lib/plan';

/**
 * What stands on a plan that a save can take away: the standing approvals (who, at which
 * revision), or the review it is in. Built on the server from the gate, read by the editor.
 */
export type ApprovalGuard =
  | { status: 'approved'; revision: number; approvers: string[] }
  | { status: 'in_review'; revision: number };

/** The banner's sentence: what stands, and what saving does to it. */
export function guardMessage(guard: ApprovalGuard): string {
  if (guard.status === 'in_review') return `In review at r${guard.revision}; saving will withdraw it from review`;
  const who = guard.approvers.length ? ` by ${joinNames(guard.approvers)}` : '';
  return `Approved${who} at r${guard.revision}; saving will void the approval`;
}

function joinNames(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Whether saving `doc` over `saved` would void what stands. The server keeps status and
 * approvals when the content hash is unchanged (a layout-only save: positions, collapsed
 * groups), so only a change of content asks first.
 */
export function saveWouldVoid(guard: ApprovalGuard | null, doc: PlanDocument, saved: PlanDocument): boolean {
  if (!guard || doc === saved) return false;
  if (doc.plan === saved.plan && doc.job === saved.job && doc.subgraphs === saved.subgraphs) return false;
  return contentHash(doc) !== contentHash(saved);
}
