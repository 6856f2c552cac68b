import 'server-only';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../platform/db/client';
import { runs } from '../platform/db/schema';
import { DispatchError } from './dispatch/dispatch-types';

// The calls in flight in this process, by run, so that stopping a run stops its calls: at
// once when it is stopped here, within a second when another instance stopped it.

const inFlight = new Map<string, Set<AbortController>>();

/** A run in one of these states aborts the calls it has in flight. A pause aborts none: calls under way finish. */
export const STOPPED_RUN_STATES: ReadonlySet<string> = new Set(['cancelled', 'failed']);

/** Aborts this process's calls of `runId` (the run was stopped here). */
export function abortRunCalls(runId: string, reason = 'The run was cancelled'): void {
  for (const controller of inFlight.get(runId) ?? []) controller.abort(new DispatchError(reason, false));
}

/**
 * Aborts `controller` when the run is stopped: at once through abortRunCalls, else within
 * a second (checked by polling, since waking on every event of a busy run would cost a
 * query per event per call in flight). Returns the function that stops watching.
 */
export function watchForStop(handle: DatabaseHandle, runId: string, controller: AbortController): () => void {
  const calls = inFlight.get(runId) ?? new Set<AbortController>();
  inFlight.set(runId, calls.add(controller));
  const timer = setInterval(() => {
    void handle.db
      .select({ state: runs.state })
      .from(runs)
      .where(eq(runs.id, runId))
      .then(([row]) => row && STOPPED_RUN_STATES.has(row.state) && controller.abort(new DispatchError(`The run was ${row.state}`, false)))
      .catch(() => undefined);
  }, 1_000);
  return () => {
    clearInterval(timer);
    calls.delete(controller);
    if (!calls.size) inFlight.delete(runId);
  };
}
