import 'server-only';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DecisionNotice } from '@/lib/api/comment-schemas';
import type { Database } from '../platform/db/client';
import { planComments, planReviews, plans } from '../platform/db/schema';
import { tasksNamedIn } from './tasks-named';

// The editor shows the newest objection (request changes, reject) as a banner until the
// plan goes back to review, with links to the tasks it is about: those its comment names
// and those where the reviewer left open threads on the revision they decided on.

export type { DecisionNotice };

const SHOWN_WHILE = new Set(['changes_requested', 'rejected', 'draft']);

/** The objection the editor should show for `planId`, given the task ids of the revision on screen. */
export async function decisionNotice(db: Database, planId: string, taskIds: string[]): Promise<DecisionNotice | null> {
  const [plan] = await db.select({ status: plans.status }).from(plans).where(eq(plans.id, planId));
  if (!plan || !SHOWN_WHILE.has(plan.status)) return null;
  const [review] = await db.select().from(planReviews).where(eq(planReviews.planId, planId)).orderBy(desc(planReviews.id)).limit(1);
  if (!review || (review.decision !== 'changes_requested' && review.decision !== 'rejected')) return null;
  const present = new Set(taskIds);
  const written = await db
    .selectDistinct({ threadId: planComments.threadId })
    .from(planComments)
    .where(and(eq(planComments.planId, planId), eq(planComments.author, review.reviewer), eq(planComments.revision, review.revision)));
  const open = written.length
    ? await db
        .select({ taskId: planComments.taskId })
        .from(planComments)
        .where(
          and(
            eq(planComments.planId, planId),
            inArray(
              planComments.id,
              written.map((row) => row.threadId),
            ),
            isNull(planComments.resolvedAt),
          ),
        )
        .orderBy(planComments.createdAt)
    : [];
  const threaded = open.map((row) => row.taskId).filter((id): id is string => id !== null && present.has(id));
  return {
    reviewId: review.id,
    decision: review.decision,
    reviewer: review.reviewer,
    revision: review.revision,
    comment: review.comment,
    createdAt: review.createdAt.toISOString(),
    taskIds: [...new Set([...tasksNamedIn(review.comment, present), ...threaded])],
  };
}
