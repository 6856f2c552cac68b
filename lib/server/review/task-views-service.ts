import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { planRevisions, reviewTaskViews } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { checkPlanId } from '../plans/plan-service';
import { revisionHasTask } from '../plans/revision-body';

// A reviewer's "viewed" marks: which tasks of one revision they have read. Personal
// reading state, like GitHub's viewed files: kept per user and revision, so a new
// revision starts unviewed, and never audited (it decides nothing).

export interface TaskViewKey {
  planId: string;
  revision: number;
}

async function requireRevision(db: Database, { planId, revision }: TaskViewKey): Promise<void> {
  checkPlanId(planId);
  const [row] = await db
    .select({ revision: planRevisions.revision })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, planId), eq(planRevisions.revision, revision)));
  if (!row) throw notFound(`Revision ${revision} of plan "${planId}"`);
}

/** The ids of the tasks `username` marked viewed in this revision, oldest mark first. */
export async function listTaskViews(db: Database, key: TaskViewKey, username: string): Promise<string[]> {
  await requireRevision(db, key);
  const rows = await db
    .select({ taskId: reviewTaskViews.taskId })
    .from(reviewTaskViews)
    .where(and(eq(reviewTaskViews.planId, key.planId), eq(reviewTaskViews.revision, key.revision), eq(reviewTaskViews.username, username)))
    .orderBy(asc(reviewTaskViews.viewedAt), asc(reviewTaskViews.taskId));
  return rows.map((row) => row.taskId);
}

/**
 * Marks (or unmarks) one task of the revision as viewed by `username`. Only a task of that
 * revision can be marked, so the table holds at most one row per task, user and revision.
 * Marking twice, or unmarking what was never marked, changes nothing.
 */
export async function setTaskViewed(db: Database, key: TaskViewKey & { taskId: string; viewed: boolean }, username: string): Promise<{ taskId: string; viewed: boolean }> {
  checkPlanId(key.planId);
  return db.transaction(async (tx) => {
    const where = and(eq(reviewTaskViews.planId, key.planId), eq(reviewTaskViews.revision, key.revision), eq(reviewTaskViews.username, username), eq(reviewTaskViews.taskId, key.taskId));
    if (!key.viewed) {
      await requireRevision(tx, key);
      await tx.delete(reviewTaskViews).where(where);
      return { taskId: key.taskId, viewed: false };
    }
    // The database looks the task up: a 20,000-task body is not sent over.
    const [row] = await tx
      .select({ hasTask: revisionHasTask(key.taskId) })
      .from(planRevisions)
      .where(and(eq(planRevisions.planId, key.planId), eq(planRevisions.revision, key.revision)));
    if (!row) throw notFound(`Revision ${key.revision} of plan "${key.planId}"`);
    if (!row.hasTask) {
      throw new AppError('unprocessable', 422, `Revision ${key.revision} of plan "${key.planId}" has no task "${key.taskId}" to mark viewed`);
    }
    await tx.insert(reviewTaskViews).values({ planId: key.planId, revision: key.revision, username, taskId: key.taskId }).onConflictDoNothing();
    return { taskId: key.taskId, viewed: true };
  });
}
