import 'server-only';
import { and, eq, lt, max } from 'drizzle-orm';
import { chooseReviewBase, type ChosenBase, type ReviewHistory } from '@/lib/approval/review-base';
import type { Database } from '../platform/db/client';
import { planReviews, reviewTaskViews } from '../platform/db/schema';

// What the review page needs to pick its base: one person's decisions and viewed marks on
// the revisions before the head, and the newest approval before it (see lib/approval/review-base).

/** `username`'s newest earlier decision and viewed marks on `planId`, and its newest earlier approval, all before `head`. */
export async function reviewHistory(db: Database, planId: string, username: string, head: number): Promise<ReviewHistory> {
  const before = and(eq(planReviews.planId, planId), lt(planReviews.revision, head));
  const [[decided], [viewed], [approved]] = await Promise.all([
    db
      .select({ revision: max(planReviews.revision) })
      .from(planReviews)
      .where(and(before, eq(planReviews.reviewer, username))),
    db
      .select({ revision: max(reviewTaskViews.revision) })
      .from(reviewTaskViews)
      .where(and(eq(reviewTaskViews.planId, planId), eq(reviewTaskViews.username, username), lt(reviewTaskViews.revision, head))),
    db
      .select({ revision: max(planReviews.revision) })
      .from(planReviews)
      .where(and(before, eq(planReviews.decision, 'approved'))),
  ]);
  return { head, lastDecided: decided?.revision ?? null, lastViewed: viewed?.revision ?? null, lastApproved: approved?.revision ?? null };
}

/** The revision the review page compares `head` with for `username`, honouring a valid `?base=`. */
export async function reviewBaseFor(db: Database, planId: string, username: string, head: number, param: string | string[] | undefined): Promise<ChosenBase & { history: ReviewHistory }> {
  const history = await reviewHistory(db, planId, username, head);
  return { ...chooseReviewBase(param, history), history };
}
