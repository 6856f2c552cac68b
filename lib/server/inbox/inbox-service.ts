import 'server-only';
import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { InboxItemKind, type InboxItem, type InboxQuery, type InboxResponse, type MarkReadRequest, type MarkReadResponse } from '@/lib/api/inbox-schemas';
import type { Database } from '../platform/db/client';
import { inboxItems, plans } from '../platform/db/schema';

// One person's inbox. Every query names the recipient, so no call can read or mark
// another user's items: an id that belongs to someone else simply matches nothing.

type Row = typeof inboxItems.$inferSelect & { planTitle: string };

function toItem(row: Row): InboxItem {
  return {
    id: row.id,
    kind: InboxItemKind.catch('comment').parse(row.kind),
    plan_id: row.planId,
    plan_title: row.planTitle,
    revision: row.revision,
    task_id: row.taskId,
    run_id: row.runId,
    actor: row.actor,
    summary: row.summary,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

export async function unreadCount(db: Database, username: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(inboxItems)
    .where(and(eq(inboxItems.recipient, username), isNull(inboxItems.readAt)));
  return row?.n ?? 0;
}

/** Newest first, `query.limit` at a time; `query.before` is the previous page's `next_cursor`. */
export async function listInbox(db: Database, username: string, query: InboxQuery): Promise<InboxResponse> {
  // Ids grow with time (one sequence), so they order the list and page it without ties.
  const rows = await db
    .select({ item: inboxItems, planTitle: plans.title })
    .from(inboxItems)
    .innerJoin(plans, eq(plans.id, inboxItems.planId))
    .where(and(eq(inboxItems.recipient, username), query.before !== undefined ? lt(inboxItems.id, query.before) : undefined))
    .orderBy(desc(inboxItems.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit).map(({ item, planTitle }) => toItem({ ...item, planTitle }));
  return {
    items: page,
    unread: await unreadCount(db, username),
    next_cursor: rows.length > query.limit ? page[page.length - 1].id : null,
  };
}

/** Marks the named items (only those that are `username`'s) or all of theirs as read. */
export async function markRead(db: Database, username: string, request: MarkReadRequest): Promise<MarkReadResponse> {
  return db.transaction(async (tx) => {
    const marked = await tx
      .update(inboxItems)
      .set({ readAt: sql`clock_timestamp()` })
      .where(and(eq(inboxItems.recipient, username), isNull(inboxItems.readAt), 'ids' in request ? inArray(inboxItems.id, request.ids) : undefined))
      .returning({ id: inboxItems.id });
    return { marked: marked.length, unread: await unreadCount(tx, username) };
  });
}

/**
 * A decision answers every request to review the plan that `username` had: those items are
 * done, so they stop counting as unread. Run in the decision's transaction.
 */
export async function markReviewRequestsDone(tx: Database, username: string, planId: string): Promise<number> {
  const done = await tx
    .update(inboxItems)
    .set({ readAt: sql`clock_timestamp()` })
    .where(and(eq(inboxItems.recipient, username), eq(inboxItems.planId, planId), eq(inboxItems.kind, 'review_requested'), isNull(inboxItems.readAt)))
    .returning({ id: inboxItems.id });
  return done.length;
}
