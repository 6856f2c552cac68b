import { SubmitForReviewButton } from '@/components/plan/submit-for-review-button';
import type { Principal } from '@/lib/server/auth/principal';
import { previousReviewers, reviewerCandidates } from '@/lib/server/approval/requested-reviewers';
import { getDatabase } from '@/lib/server/platform/db/connection';

/** The submit control with the approvers the submitter may ask by name, and those who reviewed it before, read on the server. */
export async function SubmitForReview({ planId, revision, contentHash, user }: { planId: string; revision: number; contentHash: string; user: Principal }) {
  const { db } = await getDatabase();
  const [reviewers, previous] = await Promise.all([reviewerCandidates(db, user.username), previousReviewers(db, planId, user.username)]);
  return <SubmitForReviewButton planId={planId} revision={revision} contentHash={contentHash} reviewers={reviewers} previousReviewers={previous} />;
}
