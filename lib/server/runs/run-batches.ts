import 'server-only';
import type { DatabaseHandle } from '../platform/db/client';

// Group commit for a run's task transitions. Every transaction that changes a run takes its
// row lock first (lockRunRow), so the transitions of one run are serial whatever the number
// of workers: eight workers each opening a transaction of eight statements for one task would
// queue on that lock, round trip after round trip. Instead the transitions this process wants
// to make on a run go into one queue, and one transaction writes whatever is queued. An idle
// run waits for nothing (one transition, one transaction, as before); a busy run pays the
// lock, the event insert, the NOTIFY, the dependents' update and the run state's check once
// per batch.
//
// On PostgreSQL the next batch does not wait for the current one to commit before it starts:
// its transaction asks for the run's lock while the current one still holds it, and takes
// what is queued only once it has the lock. So the lock passes from one batch to the next
// without a round trip in between, and each batch holds everything that arrived while the
// one before it was written (its statements and its commit's wait for the WAL flush). On
// PGlite, whose one connection runs one transaction at a time, a batch instead waits a few
// milliseconds for the run's other jobs under way, then writes what has come.
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

/**
 * Writes one batch of a run: `take` answers the items to write, and is called once the
 * flush holds the run's lock (items queued until then join). Answers one result per item taken, in order.
 */
export type Flush<I, R> = (handle: DatabaseHandle, runId: string, take: () => I[]) => Promise<R[]>;

/**
 * How long a flush on PGlite may wait for the transitions of the run's other jobs under way in
 * this process, when fewer are waiting than are under way: a few milliseconds on each
 * transition, for batches twice as large under load (PGlite's one connection).
 */
const LINGER_MS = 4;

export interface GroupCommit<I, R> {
  /** Queues `item` for its run's next flush; resolves with its result once that flush commits. */
  submit(handle: DatabaseHandle, runId: string, item: I): Promise<R>;
  /** Counts a job of the run under way (one that will submit) until the returned function is called. */
  underWay(handle: DatabaseHandle, runId: string): () => void;
}

interface RunQueue<I, R> {
  waiting: Waiting<I, R>[];
  /** PostgreSQL: a flush has started and not yet taken its items (it waits for the run's lock). PGlite: a flush loop runs. */
  pending: boolean;
}

const settle = <I, R>(batch: Waiting<I, R>[], run: () => Promise<R[]>) =>
  run().then(
    (results) => batch.forEach((w, i) => w.resolve(results[i])),
    (error: unknown) => batch.forEach((w) => w.reject(error)),
  );

/**
 * A queue per database and run in front of `flush`, which gets the items of one run and
 * answers one result per item, in order.
 */
export function groupCommit<I, R>(flush: Flush<I, R>): GroupCommit<I, R> {
  const queues = new WeakMap<DatabaseHandle, Map<string, RunQueue<I, R>>>();
  const counts = new WeakMap<DatabaseHandle, Map<string, number>>();
  const countOf = (handle: DatabaseHandle, runId: string) => counts.get(handle)?.get(runId) ?? 0;

  /** PostgreSQL: a flush that asks for the run's lock now and takes what is queued once it has it. */
  const flushAhead = (handle: DatabaseHandle, runs: Map<string, RunQueue<I, R>>, runId: string, queue: RunQueue<I, R>) => {
    queue.pending = true;
    const taken: { batch?: Waiting<I, R>[] } = {};
    const take = () => {
      const batch = (taken.batch = queue.waiting.splice(0, MAX_BATCH));
      queue.pending = false;
      // What is left over (more than a batch) or arrives from now on goes to the next flush, which waits for this one's lock.
      if (queue.waiting.length) flushAhead(handle, runs, runId, queue);
      return batch.map((w) => w.item);
    };
    void (async () => {
      // Items submitted in the same turn of the event loop (a batch of jobs fetched together) go in together.
      await new Promise((resolve) => setImmediate(resolve));
      try {
        const results = await flush(handle, runId, take);
        taken.batch?.forEach((w, i) => w.resolve(results[i]));
      } catch (error) {
        // Failed before it took anything (it could not begin): what waited fails with it, each caller takes its own error path.
        if (!taken.batch) take();
        taken.batch!.forEach((w) => w.reject(error));
      } finally {
        if (!queue.pending && !queue.waiting.length && runs.get(runId) === queue) runs.delete(runId);
      }
    })();
  };

  /** PGlite: flushes one after another while anything is queued, each lingering a moment for the run's jobs under way. */
  const drain = async (handle: DatabaseHandle, runs: Map<string, RunQueue<I, R>>, runId: string, queue: RunQueue<I, R>) => {
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.waiting.length) {
      for (const until = Date.now() + LINGER_MS; queue.waiting.length < countOf(handle, runId) && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 1));
      const batch = queue.waiting.splice(0, MAX_BATCH);
      await settle(batch, () => flush(handle, runId, () => batch.map((w) => w.item)));
    }
    queue.pending = false;
    runs.delete(runId);
  };

  return {
    submit: (handle, runId, item) =>
      new Promise<R>((resolve, reject) => {
        let runs = queues.get(handle);
        if (!runs) queues.set(handle, (runs = new Map()));
        let queue = runs.get(runId);
        if (!queue) runs.set(runId, (queue = { waiting: [], pending: false }));
        queue.waiting.push({ item, resolve, reject });
        if (queue.pending) return;
        if (handle.kind === 'postgres') flushAhead(handle, runs, runId, queue);
        else {
          queue.pending = true;
          void drain(handle, runs, runId, queue);
        }
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
