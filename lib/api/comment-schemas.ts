import { z } from 'zod';
import { RevisionNumber } from './schemas';

// Comment threads on a plan: request and response shapes shared by the REST routes, the
// server actions and the browser.

// Every comment is listed on every poll of every open tab, and tells people in their inbox:
// a plan holds a bounded conversation, and one user cannot flood it (or others' inboxes).
export const COMMENT_LIMITS = {
  maxBodyChars: 5_000,
  maxThreadsPerPlan: 500,
  maxCommentsPerThread: 100,
  /** Per author, across all plans, in any 60 seconds. */
  maxCommentsPerMinute: 30,
  /** Distinct @names a comment notifies; later ones are left as text. */
  maxMentions: 20,
} as const;

// PostgreSQL text cannot hold NUL, and a lone surrogate cannot be sent back as JSON intact.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const CommentBody = z
  .string()
  .trim()
  .min(1, 'Write something: a comment cannot be empty')
  .max(COMMENT_LIMITS.maxBodyChars, `Comments are at most ${COMMENT_LIMITS.maxBodyChars.toLocaleString('en')} characters`)
  .refine((text) => !UNSTORABLE.test(text), 'NUL characters and unpaired surrogates cannot be stored');

const Id = z.string().min(1).max(200);

/** A new thread (no thread_id) on a task or, with task_id null, on the whole plan; or a reply (thread_id). */
export const CreateCommentRequest = z.strictObject({
  /** The task the thread is about; null or omitted for the plan as a whole. A reply takes its thread's task. */
  task_id: Id.nullable().optional(),
  body: CommentBody,
  /** Set to reply in an existing thread. */
  thread_id: Id.optional(),
  /** The revision on screen when it was written; the task must exist in it. */
  revision: RevisionNumber,
});
export type CreateCommentRequest = z.infer<typeof CreateCommentRequest>;

export const Comment = z.object({
  id: z.string(),
  thread_id: z.string(),
  task_id: z.string().nullable(),
  revision: z.number().int(),
  author: z.string(),
  body: z.string(),
  /** Set when the comment came with a review decision. */
  review_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type Comment = z.infer<typeof Comment>;

export const Thread = z.object({
  /** The id of the thread's first comment. */
  id: z.string(),
  task_id: z.string().nullable(),
  /** The revision the thread was started on. */
  revision: z.number().int(),
  author: z.string(),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
  resolved_by: z.string().nullable(),
  /** The thread's task is not in the listed revision (removed since, or renamed). */
  on_removed_task: z.boolean(),
  /** Oldest first; the first is the thread's root. */
  comments: z.array(Comment),
});
export type Thread = z.infer<typeof Thread>;

export const CommentListResponse = z.object({
  plan_id: z.string(),
  /** The revision the threads are listed for: threads started on it or before. */
  revision: z.number().int(),
  threads: z.array(Thread),
});
export type CommentListResponse = z.infer<typeof CommentListResponse>;

export const CreatedComment = z.object({ comment: Comment, thread: Thread });
export type CreatedComment = z.infer<typeof CreatedComment>;

/** What the editor shows of the newest objection to a plan (request changes, reject). */
export interface DecisionNotice {
  reviewId: number;
  decision: 'changes_requested' | 'rejected';
  reviewer: string;
  revision: number;
  comment: string;
  createdAt: string;
  /** Tasks of the revision on screen that the decision is about, in the order found. */
  taskIds: string[];
}
