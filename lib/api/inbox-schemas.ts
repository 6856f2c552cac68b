import { z } from 'zod';

// The signed-in user's inbox: what happened on plans they are involved in.

// 'gate': a task of a run waits at its gate for the recipient's decision.
export const INBOX_ITEM_KINDS = ['review_requested', 'decision', 'comment', 'mention', 'approval_voided', 'run', 'gate'] as const;
export const InboxItemKind = z.enum(INBOX_ITEM_KINDS);
export type InboxItemKind = z.infer<typeof InboxItemKind>;

export const MAX_INBOX_PAGE = 100;
export const MAX_MARK_READ = 200;

export const InboxItem = z.object({
  id: z.number().int(),
  kind: InboxItemKind,
  plan_id: z.string(),
  plan_title: z.string(),
  revision: z.number().int().nullable(),
  task_id: z.string().nullable(),
  /** The run the item tells of (a gate waiting, a run stopped); null for news of the plan. */
  run_id: z.string().nullable(),
  /** Who did what the item tells of. */
  actor: z.string(),
  summary: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type InboxItem = z.infer<typeof InboxItem>;

export const InboxResponse = z.object({
  items: z.array(InboxItem),
  unread: z.number().int(),
  /** Pass as `before` for the next, older page; null when there is none. */
  next_cursor: z.number().int().nullable(),
});
export type InboxResponse = z.infer<typeof InboxResponse>;

export const InboxQuery = z.strictObject({
  limit: z.coerce.number().int().min(1, 'limit is at least 1').max(MAX_INBOX_PAGE, `limit is at most ${MAX_INBOX_PAGE}`).default(50),
  before: z.coerce.number().int().positive('before is an item id from next_cursor').optional(),
});
export type InboxQuery = z.infer<typeof InboxQuery>;

export const MarkReadRequest = z.union([
  z.strictObject({ ids: z.array(z.number().int().positive()).min(1, 'Name at least one item').max(MAX_MARK_READ, `At most ${MAX_MARK_READ} items at once`) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkReadRequest = z.infer<typeof MarkReadRequest>;

export const MarkReadResponse = z.object({ marked: z.number().int(), unread: z.number().int() });
export type MarkReadResponse = z.infer<typeof MarkReadResponse>;
