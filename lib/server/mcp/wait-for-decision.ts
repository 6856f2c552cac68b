import 'server-only';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GateResponse } from '@/lib/api/gate-schemas';
import type { PlanStatus } from '@/lib/approval/plan-status';
import { getGateReviews } from '../approval/approval-service';
import type { Database } from '../platform/db/client';

// An agent that submitted a plan waits here for a person's decision instead of polling the
// REST API itself. The plan row is read about once a second; a decision commits in another
// request (or on another instance), so reading the database is what sees it everywhere.

/** The longest one call waits; an agent that needs longer calls again. */
export const MAX_WAIT_SECONDS = 300;
/** Under the 60-second request timeout most MCP clients start with. */
export const DEFAULT_WAIT_SECONDS = 55;
const POLL_MS = 1_000;
const PROGRESS_EVERY_MS = 5_000;

const DECIDED: ReadonlySet<PlanStatus> = new Set(['approved', 'changes_requested', 'rejected']);

export type GateNow = Omit<GateResponse, 'resources_hash'>;

export interface WaitOutcome extends GateNow {
  /** The plan was approved, rejected or sent back with changes requested. */
  decided: boolean;
  /** Still in review when the wait ran out. */
  timed_out: boolean;
  waited_seconds: number;
}

export interface WaitOptions {
  timeoutMs: number;
  /** Aborted when the client goes away or cancels the call: the wait stops at once. */
  signal: AbortSignal;
  /** Called when the wait starts and every few seconds while it lasts. */
  onProgress?: (waitedMs: number, gate: GateNow) => Promise<void>;
  pollMs?: number;
}

/** Live approvals of the head's content: what "1 of 2 approvals" counts. */
export function liveApprovals(gate: GateNow): number {
  return gate.reviews.filter((review) => review.decision === 'approved' && review.superseded_at === null).length;
}

/**
 * Waits while the plan is in review, up to `timeoutMs`. Answers at once for a plan that is
 * not in review (decided already, or a draft nobody submitted): there is nothing to wait for.
 */
export async function waitForDecision(db: Database, planId: string, { timeoutMs, signal, onProgress, pollMs = POLL_MS }: WaitOptions): Promise<WaitOutcome> {
  const started = Date.now();
  let reported = Number.NEGATIVE_INFINITY;
  for (;;) {
    signal.throwIfAborted();
    const gate = await getGateReviews(db, planId);
    const waited = Date.now() - started;
    if (gate.status !== 'in_review' || waited >= timeoutMs) {
      return { ...gate, decided: DECIDED.has(gate.status), timed_out: gate.status === 'in_review', waited_seconds: Math.round(waited / 1000) };
    }
    if (onProgress && Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      await onProgress(waited, gate);
    }
    await sleep(Math.min(pollMs, timeoutMs - waited), undefined, { signal });
  }
}
