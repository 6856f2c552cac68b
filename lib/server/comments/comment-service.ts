import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { COMMENT_LIMITS, type Comment, type CommentListResponse, type CreateCommentRequest, type CreatedComment, type Thread } from '@/lib/api/comment-schemas';
import { appendAudit } from '../audit/audit-log';
import type { Principal } from '../auth/principal';
import type { Database } from '../platform/db/client';
import { planComments, planRevisions, plans, user } from '../platform/db/schema';
import { AppError, notFound, rateLimited } from '../platform/errors';
import { notify } from '../inbox/notify';
import { checkPlanId } from '../plans/plan-service';
import { emitWebhookEvent } from '../webhooks/events';
import { mentionedNames } from './mentions';
import { revisionTaskIds } from './revision-tasks';

// A thread is its root comment (thread_id = id) plus the replies that name it; only the
// root carries resolved_at/by. Threads are stored against the revision they were written
// on and shown on every later revision while their task is still in it.

type Row = typeof planComments.$inferSelect;

const EXCERPT_CHARS = 200;

export const excerptOf = (body: string): string => (body.length > EXCERPT_CHARS ? `${body.slice(0, EXCERPT_CHARS - 1)}…` : body);

function toComment(row: Row): Comment {
  return {
    id: row.id,
    thread_id: row.threadId,
    task_id: row.taskId,
    revision: row.revision,
    author: row.author,
    body: row.body,
    review_id: row.reviewId,
    created_at: row.createdAt.toISOString(),
  };
}

function toThread(rows: Row[], removedTasks: Set<string>): Thread {
  const root = rows[0];
  return {
    id: root.id,
    task_id: root.taskId,
    revision: root.revision,
    author: root.author,
    created_at: root.createdAt.toISOString(),
    resolved_at: root.resolvedAt?.toISOString() ?? null,
    resolved_by: root.resolvedBy,
    on_removed_task: root.taskId !== null && removedTasks.has(root.taskId),
    comments: rows.map(toComment),
  };
}

/** Groups rows (oldest first) into threads, root first; replies whose root is missing are dropped. */
function threadsOf(rows: Row[], removedTasks: Set<string>): Thread[] {
  const byThread = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.id === row.threadId) byThread.set(row.id, [row]);
  }
  for (const row of rows) {
    if (row.id !== row.threadId) byThread.get(row.threadId)?.push(row);
  }
  return [...byThread.values()].map((thread) => toThread(thread, removedTasks));
}

async function findPlan(db: Database, planId: string, lock = false) {
  checkPlanId(planId);
  const query = db.select().from(plans).where(eq(plans.id, planId));
  const [plan] = lock ? await query.for('update') : await query;
  if (!plan) throw notFound(`Plan "${planId}"`);
  return plan;
}

function checkRevision(revision: number, head: number, planId: string): void {
  if (revision > head) throw notFound(`Revision ${revision} of plan "${planId}"`);
}

/** Every thread started on `revision` (default: the head) or before, oldest first. */
export async function listComments(db: Database, planId: string, revision?: number): Promise<CommentListResponse> {
  const plan = await findPlan(db, planId);
  const shown = revision ?? plan.headRevision;
  checkRevision(shown, plan.headRevision, planId);
  const rows = await db
    .select()
    .from(planComments)
    .where(and(eq(planComments.planId, planId), lte(planComments.revision, shown)))
    .orderBy(asc(planComments.createdAt), asc(planComments.id));
  const anchored = new Set(rows.filter((row) => row.id === row.threadId && row.taskId !== null).map((row) => row.taskId!));
  const present = anchored.size ? await revisionTaskIds(db, planId, shown) : new Set<string>();
  const removed = new Set([...anchored].filter((id) => !present.has(id)));
  return { plan_id: planId, revision: shown, threads: threadsOf(rows, removed) };
}

async function threadRows(tx: Database, planId: string, threadId: string): Promise<Row[]> {
  return tx
    .select()
    .from(planComments)
    .where(and(eq(planComments.planId, planId), eq(planComments.threadId, threadId)))
    .orderBy(asc(planComments.createdAt), asc(planComments.id));
}

/** The people a comment concerns: who wrote or submitted the plan's revisions, and who spoke in the thread. */
async function planPeople(tx: Database, planId: string, submittedBy: string | null, thread: Row[]): Promise<string[]> {
  const authors = await tx.selectDistinct({ author: planRevisions.author }).from(planRevisions).where(eq(planRevisions.planId, planId));
  return [...authors.map((row) => row.author), ...(submittedBy ? [submittedBy] : []), ...thread.map((row) => row.author)];
}

/** The @named users that exist, in one query. */
async function existingUsers(tx: Database, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  const rows = await tx.select({ username: user.username }).from(user).where(inArray(user.username, names));
  return rows.map((row) => row.username).filter((name): name is string => !!name);
}

/**
 * Refuses a comment when its author wrote COMMENT_LIMITS.maxCommentsPerMinute in the last
 * minute, on any plan, saying when the oldest of them leaves the window. Counted from the
 * comments themselves (plan_comments_author_idx), so every instance agrees.
 */
async function checkRate(tx: Database, author: string): Promise<void> {
  const limit = COMMENT_LIMITS.maxCommentsPerMinute;
  const result = await tx.execute(sql`
    select count(*)::int as count,
      extract(epoch from (min(${planComments.createdAt}) + interval '60 seconds' - clock_timestamp()))::float8 as wait
    from ${planComments}
    where ${planComments.author} = ${author} and ${planComments.createdAt} > clock_timestamp() - interval '60 seconds'`);
  const [row] = (result as unknown as { rows: Array<{ count: number; wait: number | null }> }).rows;
  if (Number(row?.count ?? 0) < limit) return;
  const wait = Math.max(1, Math.ceil(Number(row?.wait ?? 60)));
  throw rateLimited(`You wrote ${limit} comments in the last minute, the most allowed; try again in ${wait} second${wait === 1 ? '' : 's'}`, wait);
}

/** Starts a thread, or replies in one; audited, announced (comment.created) and notified in the same transaction. */
export async function createComment(db: Database, planId: string, request: CreateCommentRequest, principal: Principal): Promise<CreatedComment> {
  return db.transaction(async (tx) => {
    // The plan row lock serialises comments on one plan, so the thread cap holds under concurrency.
    const plan = await findPlan(tx, planId, true);
    checkRevision(request.revision, plan.headRevision, planId);
    await checkRate(tx, principal.username);
    let thread: Row[] = [];
    let taskId = request.task_id ?? null;
    if (request.thread_id !== undefined) {
      thread = await threadRows(tx, planId, request.thread_id);
      const root = thread[0];
      if (!root || root.id !== request.thread_id) throw notFound(`Comment thread "${request.thread_id}" on plan "${planId}"`);
      if (request.task_id !== undefined && request.task_id !== root.taskId) {
        throw new AppError('bad_request', 400, `A reply belongs to its thread's ${root.taskId ? `task "${root.taskId}"` : 'plan'}; leave task_id out or send ${JSON.stringify(root.taskId)}`);
      }
      if (thread.length >= COMMENT_LIMITS.maxCommentsPerThread) {
        throw new AppError('unprocessable', 422, `This thread has ${COMMENT_LIMITS.maxCommentsPerThread} comments, the most a thread can hold; start a new thread`);
      }
      taskId = root.taskId;
    } else {
      if (taskId !== null && !(await revisionTaskIds(tx, planId, request.revision)).has(taskId)) {
        throw new AppError('unprocessable', 422, `Task "${taskId}" is not in revision ${request.revision} of plan "${planId}"`);
      }
      const [{ count }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(planComments)
        .where(and(eq(planComments.planId, planId), sql`${planComments.id} = ${planComments.threadId}`));
      if (Number(count) >= COMMENT_LIMITS.maxThreadsPerPlan) {
        throw new AppError('unprocessable', 422, `This plan has ${COMMENT_LIMITS.maxThreadsPerPlan.toLocaleString('en')} comment threads, the most a plan can hold; reply in an existing thread`);
      }
    }
    const id = randomUUID();
    const threadId = request.thread_id ?? id;
    const [row] = await tx
      .insert(planComments)
      .values({ id, planId, threadId, taskId, revision: request.revision, author: principal.username, body: request.body })
      .returning();
    const excerpt = excerptOf(request.body);
    await appendAudit(tx, {
      kind: 'comment_created',
      actor: principal.username,
      planId,
      revision: request.revision,
      detail: { comment_id: id, thread_id: threadId, task_id: taskId, body: request.body },
    });
    await emitWebhookEvent(tx, {
      event: 'comment.created',
      planId,
      actor: principal.username,
      detail: { comment_id: id, thread_id: threadId, task_id: taskId, revision: request.revision, excerpt },
    });
    const where = taskId ? `task ${taskId} of ${plan.title}` : plan.title;
    const mentioned = await existingUsers(tx, mentionedNames(request.body));
    await notify(tx, { recipients: mentioned, kind: 'mention', planId, revision: request.revision, taskId, actor: principal.username, summary: `${principal.username} mentioned you on ${where}: ${excerpt}` });
    const people = (await planPeople(tx, planId, plan.submittedBy, thread)).filter((name) => !mentioned.includes(name));
    await notify(tx, {
      recipients: people,
      kind: 'comment',
      planId,
      revision: request.revision,
      taskId,
      actor: principal.username,
      summary: `${principal.username} ${request.thread_id ? 'replied' : 'commented'} on ${where}: ${excerpt}`,
    });
    const rows = [...thread, row];
    const removed = new Set<string>();
    return { comment: toComment(row), thread: toThread(rows, removed) };
  });
}

/** Resolves (or reopens) the thread `commentId` belongs to; any comment of the thread names it. */
export async function setThreadResolved(db: Database, planId: string, commentId: string, resolved: boolean, principal: Principal): Promise<Thread> {
  return db.transaction(async (tx) => {
    const plan = await findPlan(tx, planId, true);
    const [named] = await tx
      .select()
      .from(planComments)
      .where(and(eq(planComments.planId, planId), eq(planComments.id, commentId)));
    if (!named) throw notFound(`Comment "${commentId.slice(0, 200)}" on plan "${planId}"`);
    const thread = await threadRows(tx, planId, named.threadId);
    const root = thread[0]!;
    if (resolved === (root.resolvedAt !== null)) {
      throw new AppError(
        'conflict',
        409,
        resolved ? `The thread was already resolved by ${root.resolvedBy} at ${root.resolvedAt!.toISOString()}` : 'The thread is open already; only a resolved thread can be reopened',
      );
    }
    const [updated] = await tx
      .update(planComments)
      .set(resolved ? { resolvedAt: sql`clock_timestamp()`, resolvedBy: principal.username } : { resolvedAt: null, resolvedBy: null })
      .where(eq(planComments.id, root.id))
      .returning();
    await appendAudit(tx, {
      kind: resolved ? 'comment_resolved' : 'comment_reopened',
      actor: principal.username,
      planId,
      revision: plan.headRevision,
      detail: { thread_id: root.id, task_id: root.taskId },
    });
    const present = root.taskId ? await revisionTaskIds(tx, planId, plan.headRevision) : new Set<string>();
    const removed = new Set(root.taskId && !present.has(root.taskId) ? [root.taskId] : []);
    return toThread([updated, ...thread.slice(1)], removed);
  });
}
