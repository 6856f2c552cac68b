import 'server-only';
// How a server told to stop (SIGTERM, SIGINT) stops: within a bound, whatever the load.
// Next's own handler stops accepting connections at the same signal; this one lets the
// requests already being handled finish (up to DRAIN_MS), then stops the run workers and
// closes the database (up to CLOSE_MS, so PGlite's files are left clean for the next start),
// then exits. It exits itself: Next's handler waits for every connection to end, which an
// open event stream or a busy client never does, and a second signal does not hurry it.

/** How long requests under way may take to finish once the server is told to stop. */
export const DRAIN_MS = 5_000;
/** How long closing the workers and the database may take after that. */
export const CLOSE_MS = 3_000;

const countKey = Symbol.for('plangate.requestsInFlight');
type CountGlobal = typeof globalThis & { [countKey]?: { count: number } };

// On globalThis: routes and server actions are separate bundles in one process.
function counter(): { count: number } {
  const store = globalThis as CountGlobal;
  store[countKey] ??= { count: 0 };
  return store[countKey];
}

/** Runs one request's handler, counted as in flight while it runs (route handlers and server actions). */
export async function inFlight<T>(handle: () => Promise<T>): Promise<T> {
  const requests = counter();
  requests.count += 1;
  try {
    return await handle();
  } finally {
    requests.count -= 1;
  }
}

export function requestsInFlight(): number {
  return counter().count;
}

export interface Drain {
  /** Requests still being handled. */
  inFlight: () => number;
  /** Stops the workers and closes the database. */
  close: () => Promise<void>;
  exit: () => void;
  drainMs?: number;
  closeMs?: number;
  /** How often the drain looks at inFlight. */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Waits for the requests under way (bounded), closes (bounded), then exits: never more than drainMs + closeMs. */
export async function drainAndExit({ inFlight: pending, close, exit, drainMs = DRAIN_MS, closeMs = CLOSE_MS, pollMs = 50 }: Drain): Promise<void> {
  const until = Date.now() + drainMs;
  while (pending() > 0 && Date.now() < until) await sleep(pollMs);
  await Promise.race([close().catch(() => undefined), sleep(closeMs)]);
  exit();
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Installs the drain for SIGINT and SIGTERM (once per process): `close` is the database's.
 * Next's handler calls process.exit as soon as its connections have ended, which may be
 * while the database is still closing; that exit is held until the drain has closed it.
 */
export function drainOnSignals(close: () => Promise<void>): void {
  const shutdown = (signal: NodeJS.Signals) => {
    const exit = process.exit.bind(process);
    let code = SIGNAL_EXIT[signal] ?? 1;
    process.exit = ((held?: number) => {
      if (typeof held === 'number') code = held;
    }) as typeof process.exit;
    void drainAndExit({ inFlight: requestsInFlight, close, exit: () => exit(code) });
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
