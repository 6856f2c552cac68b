import { z } from 'zod';

// Live plan state (POST/DELETE /api/plans/{id}/presence): an open tab's heartbeat and the
// answer that drives the editor's live bar.

export const SessionId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'session_id must be 8 to 64 letters, digits, "-" or "_"');

export const Heartbeat = z.strictObject({
  /** One browser tab, chosen by it; only ever its user's. */
  session_id: SessionId,
  /** The revision the tab shows; not newer than the head. */
  revision: z.number().int().min(1),
  /** Whether the tab has unsaved edits. */
  dirty: z.boolean(),
});
export type Heartbeat = z.infer<typeof Heartbeat>;

export const LeaveRequest = z.strictObject({ session_id: SessionId });

/** Audit kinds that say what happened to a plan, as the live banner tells it. */
export const ACTIVITY_KINDS = ['created', 'revised', 'submitted', 'approved', 'changes_requested', 'rejected', 'superseded'] as const;

export const LiveStateResponse = z.object({
  head: z.object({ revision: z.number().int(), status: z.string(), author: z.string(), saved_at: z.string(), message: z.string() }),
  /** The plan's latest gate events, newest first. */
  activity: z.array(
    z.object({
      kind: z.enum(ACTIVITY_KINDS),
      actor: z.string(),
      revision: z.number().int().nullable(),
      at: z.string(),
      /** A save that only moved tasks. */
      layout_only: z.boolean(),
    }),
  ),
  /** Everyone else with the plan open (not the calling tab); `self` marks the caller's other tabs. */
  present: z.array(z.object({ username: z.string(), revision: z.number().int(), dirty: z.boolean(), self: z.boolean() })),
});
export type LiveState = z.infer<typeof LiveStateResponse>;
export type PlanActivity = LiveState['activity'][number];
export type PresentUser = LiveState['present'][number];
