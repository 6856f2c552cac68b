import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from './client';
import { AppError } from '../errors';

// What GET /api/health says of the database. Health is the process's liveness: it must
// answer from the event loop in milliseconds, while the database may be busy for a second
// with one long write (PGlite has one connection, so a 20,000-task save's transaction makes
// every other query wait; a PostgreSQL pool can be exhausted the same way). So health does
// not wait behind that write: it starts a probe (`select 1`, at most one in flight), waits
// a moment for it, and otherwise answers "busy" with how long the probe has been waiting.
// The database is reported down (503) when the last probe failed, or when one has waited
// longer than any write the server makes should take.

/** How long health waits for its probe before answering "busy". */
export const PROBE_WAIT_MS = 25;
/** A probe waiting this long means the database is stuck, not busy: a 503. */
export const PROBE_STUCK_MS = 30_000;

/** `ms`: how long the probe took (ok), or how long it has been waiting so far (busy). */
export interface DatabaseStatus {
  status: 'ok' | 'busy';
  ms: number;
}

interface Probe {
  startedAt: number;
  done: Promise<void>;
  /** Set when it settles. */
  outcome: { ok: true; ms: number } | { ok: false; message: string } | null;
}

/** Per database handle: the probe in flight (or the last one) and the last that settled. */
const probes = new WeakMap<Database, { current: Probe | null; last: Probe['outcome'] }>();

function startProbe(db: Database): Probe {
  const probe: Probe = { startedAt: performance.now(), done: Promise.resolve(), outcome: null };
  probe.done = db.execute(sql`select 1`).then(
    () => {
      probe.outcome = { ok: true, ms: Math.round(performance.now() - probe.startedAt) };
    },
    (error: unknown) => {
      probe.outcome = { ok: false, message: error instanceof Error ? error.message : String(error) };
    },
  );
  return probe;
}

/**
 * The database's status as health reports it: "ok" when a probe answered within
 * `waitMs`, "busy" while one is queued behind other work; a 503 when it failed or is stuck.
 */
export async function databaseStatus(db: Database, waitMs = PROBE_WAIT_MS, stuckMs = PROBE_STUCK_MS): Promise<DatabaseStatus> {
  let state = probes.get(db);
  if (!state) probes.set(db, (state = { current: null, last: null }));
  // A new probe unless one is still waiting (a busy database gets no pile of probes).
  if (!state.current || state.current.outcome) state.current = startProbe(db);
  const probe = state.current;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([probe.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  if (probe.outcome) state.last = probe.outcome;
  const outcome = probe.outcome;
  if (outcome && !outcome.ok) throw new AppError('unavailable', 503, `The database is not answering: ${outcome.message}`);
  if (outcome) return { status: 'ok', ms: outcome.ms };
  const waiting = Math.round(performance.now() - probe.startedAt);
  if (waiting >= stuckMs) throw new AppError('unavailable', 503, `The database has not answered a probe for ${(waiting / 1000).toFixed(0)} s`);
  // Busy, but the last probe that settled failed: the database is down, not busy.
  if (state.last && !state.last.ok) throw new AppError('unavailable', 503, `The database is not answering: ${state.last.message}`);
  return { status: 'busy', ms: waiting };
}
