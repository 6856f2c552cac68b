import type { ApprovalGuard } from '@/lib/editor-store/approval-guard';
import { getGateReviews } from '@/lib/server/approval/approval-service';
import type { Database } from '@/lib/server/platform/db/client';

/**
 * What a content-changing save of the head would void, for the editor's banner and its
 * confirmation: the approvals that still stand (not superseded), or the review it is in.
 */
export async function loadApprovalGuard(db: Database, id: string): Promise<ApprovalGuard | null> {
  const gate = await getGateReviews(db, id);
  if (gate.status === 'in_review') return { status: 'in_review', revision: gate.revision };
  if (gate.status !== 'approved') return null;
  const standing = gate.reviews.filter((r) => r.decision === 'approved' && r.superseded_at === null);
  const revision = standing.length ? Math.max(...standing.map((r) => r.revision)) : gate.revision;
  const approvers = [...new Set(standing.filter((r) => r.revision === revision).map((r) => r.reviewer))];
  return { status: 'approved', revision, approvers };
}
