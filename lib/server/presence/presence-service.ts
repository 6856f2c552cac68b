import 'server-only';
import { and, asc, desc, eq, inArray, lt, ne, gte, sql } from 'drizzle-orm';
import { ACTIVITY_KINDS, Heartbeat, type LiveState, type PlanActivity } from '@/lib/api/presence-schemas';
import type { Database } from '../platform/db/client';
import { auditEvents, planPresence, planRevisions, plans } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { checkPlanId } from '../plans/plan-service';

// Live plan state for open editors: each browser tab sends a heartbeat every few seconds
// (its revision and whether it has unsaved edits) and gets back the plan's head, its recent
// gate activity and who else has it open. A tab that stops beating is gone after
// PRESENCE_STALE_MS; each heartbeat deletes its plan's stale rows, and now and then every
// plan's (tabs of plans nobody opens again), so the table stays small.

export const PRESENCE_STALE_MS = 15_000;
/** Open tabs counted per plan: beyond this a tab is not recorded (it still gets the state). */
export const MAX_TABS_PER_PLAN = 50;
/** Open tabs one user may have counted on one plan. */
export const MAX_TABS_PER_USER = 10;
const ACTIVITY_LIMIT = 5;
/** First key of the per-plan advisory lock that makes the tab caps hold under concurrent beats. */
const PRESENCE_LOCK_KEY = 7_316_012;
/** One heartbeat in this many also sweeps the stale rows of every plan. */
const GLOBAL_SWEEP_EVERY = 50;

export { Heartbeat };

export type { LiveState, PlanActivity, PresentUser } from '@/lib/api/presence-schemas';
type ActivityKind = PlanActivity['kind'];

/** Records one tab's heartbeat and returns the plan's live state. */
export async function heartbeat(
  db: Database,
  planId: string,
  username: string,
  beat: Heartbeat,
  now = new Date(),
  sweepAll = Math.random() < 1 / GLOBAL_SWEEP_EVERY,
): Promise<LiveState> {
  checkPlanId(planId);
  const parsed = Heartbeat.safeParse(beat);
  if (!parsed.success) throw new AppError('bad_request', 400, `heartbeat: ${parsed.error.issues[0]!.message}`);
  const cutoff = new Date(now.getTime() - PRESENCE_STALE_MS);
  return db.transaction(async (tx) => {
    const [plan] = await tx.select().from(plans).where(eq(plans.id, planId));
    if (!plan) throw notFound(`Plan "${planId}"`);
    if (beat.revision > plan.headRevision) {
      throw new AppError('bad_request', 400, `heartbeat: revision ${beat.revision} does not exist yet (the head is ${plan.headRevision})`);
    }
    // Beats of one plan take turns, so two new tabs cannot both pass a cap with one place left.
    await tx.execute(sql`select pg_advisory_xact_lock(${PRESENCE_LOCK_KEY}, hashtext(${planId}))`);
    // This plan's gone tabs on every beat (plan_presence_seen_idx); every plan's only now and then (plan_presence_last_seen_idx).
    await tx.delete(planPresence).where(sweepAll ? lt(planPresence.lastSeen, cutoff) : and(eq(planPresence.planId, planId), lt(planPresence.lastSeen, cutoff)));

    const live = await tx
      .select()
      .from(planPresence)
      .where(and(eq(planPresence.planId, planId), gte(planPresence.lastSeen, cutoff)))
      .orderBy(asc(planPresence.username), asc(planPresence.sessionId));
    const known = live.find((row) => row.sessionId === beat.session_id);
    // A session id is only ever its user's: another user's id is refused, not taken over.
    if (known && known.username !== username) throw new AppError('conflict', 409, 'heartbeat: this session id belongs to another tab');
    const full = live.length >= MAX_TABS_PER_PLAN || live.filter((row) => row.username === username).length >= MAX_TABS_PER_USER;
    if (known || !full) {
      await tx
        .insert(planPresence)
        .values({ planId, username, sessionId: beat.session_id, revision: beat.revision, dirty: beat.dirty, lastSeen: now })
        .onConflictDoUpdate({
          target: [planPresence.planId, planPresence.sessionId],
          set: { revision: beat.revision, dirty: beat.dirty, lastSeen: now },
          setWhere: eq(planPresence.username, username),
        });
    }

    const [head] = await tx
      .select({ author: planRevisions.author, createdAt: planRevisions.createdAt, message: planRevisions.message })
      .from(planRevisions)
      .where(and(eq(planRevisions.planId, planId), eq(planRevisions.revision, plan.headRevision)));
    const events = await tx
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.planId, planId), inArray(auditEvents.kind, [...ACTIVITY_KINDS])))
      .orderBy(desc(auditEvents.seq))
      .limit(ACTIVITY_LIMIT);

    return {
      head: {
        revision: plan.headRevision,
        status: plan.status,
        author: head?.author ?? '',
        saved_at: (head?.createdAt ?? plan.updatedAt).toISOString(),
        message: head?.message ?? '',
      },
      activity: events.map((e) => ({
        kind: e.kind as ActivityKind,
        actor: e.actor,
        revision: e.revision,
        at: e.at,
        layout_only: e.detail.layout_only === true,
      })),
      present: live
        .filter((row) => row.sessionId !== beat.session_id)
        .map((row) => ({ username: row.username, revision: row.revision, dirty: row.dirty, self: row.username === username })),
    };
  });
}

/** Forgets a tab that closed, so others stop seeing it before it goes stale. */
export async function leave(db: Database, planId: string, username: string, sessionId: string): Promise<void> {
  await db
    .delete(planPresence)
    .where(and(eq(planPresence.planId, planId), eq(planPresence.sessionId, sessionId), eq(planPresence.username, username)));
}

/** How many tabs are recorded, for tests and operators: stale rows are gone after any heartbeat. */
export async function countPresence(db: Database, planId?: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(planPresence)
    .where(planId ? eq(planPresence.planId, planId) : ne(planPresence.planId, ''));
  return row?.n ?? 0;
}
