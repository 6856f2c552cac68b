import 'server-only';
import type { DatabaseHandle } from '../platform/db/client';

// Group commit for a run's task transitions. Every transaction that changes a run takes its
// row lock first (lockRunRow), so the transitions of one run are serial whatever the number
// of workers: eight workers each opening a transaction of eight statements for one task would
// queue on that lock, round trip after round trip. Instead the transitions this process wants
// to make on a run go into one queue; whoever finds it idle flushes it at once, and what
// arrives meanwhile is flushed together as soon as that flush commits. An idle run waits for
// nothing (one transition, one transaction, as before); a busy run pays the lock, the event
// insert, the NOTIFY, the dependents' update and the run state's check once per batch.
//
// Each transition in a batch is still decided on its own, under the lock, on the rows as the
// batch's transaction sees them, with every fence it had on its own; they commit together, so
// each one is atomic as before. A failed flush fails every transition in it, each caller then
// takes its own error path (its job is delivered again).

/** More than this many waiting transitions are flushed in several transactions, to keep each short. */
const MAX_BATCH = 256;

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export type Flush<I, R> = (handle: DatabaseHandle, runId: string, items: I[]) => Promise<R[]>;

/**
 * How long a flush may wait for the transitions of the run's other jobs under way in this
 * process, when fewer are waiting than are under way: a few milliseconds on each transition,
 * for batches twice as large under load (PGlite's one connection, PostgreSQL's commits).
 */
const LINGER_MS = 4;

export interface GroupCommit<I, R> {
  /** Queues `item` for its run's next flush; resolves with its result once that flush commits. */
  submit(handle: DatabaseHandle, runId: string, item: I): Promise<R>;
  /** Counts a job of the run under way (one that will submit) until the returned function is called. */
  underWay(handle: DatabaseHandle, runId: string): () => void;
}

/**
 * A queue per database and run in front of `flush`, which gets the items of one run and
 * answers one result per item, in order.
 */
export function groupCommit<I, R>(flush: Flush<I, R>): GroupCommit<I, R> {
  const queues = new WeakMap<DatabaseHandle, Map<string, Waiting<I, R>[]>>();
  const counts = new WeakMap<DatabaseHandle, Map<string, number>>();
  const countOf = (handle: DatabaseHandle, runId: string) => counts.get(handle)?.get(runId) ?? 0;
  const drain = async (handle: DatabaseHandle, runs: Map<string, Waiting<I, R>[]>, runId: string) => {
    // Items submitted in the same turn of the event loop (a batch of jobs fetched together) go in the first flush.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      const waiting = runs.get(runId)!;
      if (!waiting.length) {
        runs.delete(runId);
        return;
      }
      // Other jobs of the run are under way: give them a moment to join this batch.
      for (const until = Date.now() + LINGER_MS; waiting.length < countOf(handle, runId) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 1));
      const batch = waiting.splice(0, MAX_BATCH);
      try {
        const results = await flush(
          handle,
          runId,
          batch.map((w) => w.item),
        );
        batch.forEach((w, i) => w.resolve(results[i]));
      } catch (error) {
        batch.forEach((w) => w.reject(error));
      }
    }
  };
  return {
    submit: (handle, runId, item) =>
      new Promise<R>((resolve, reject) => {
        let runs = queues.get(handle);
        if (!runs) queues.set(handle, (runs = new Map()));
        const waiting = runs.get(runId);
        if (waiting) return void waiting.push({ item, resolve, reject });
        runs.set(runId, [{ item, resolve, reject }]);
        void drain(handle, runs, runId);
      }),
    underWay(handle, runId) {
      let runs = counts.get(handle);
      if (!runs) counts.set(handle, (runs = new Map()));
      runs.set(runId, (runs.get(runId) ?? 0) + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (runs.get(runId) ?? 1) - 1;
        if (left > 0) runs.set(runId, left);
        else runs.delete(runId);
      };
    },
  };
}
