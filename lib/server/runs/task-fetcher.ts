import 'server-only';
import type { Job, PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../platform/db/client';
import { TASK_QUEUE } from './job-queue';
import { runFeed } from './run-events';

// The task queue's fetch loop: Plangate's own, instead of pg-boss's work(), so a job can be
// completed in the transaction that records its task's last transition (task-runner.ts).
// With work(), pg-boss completes each job after its handler returns, one statement per job,
// and fetches one job per free worker, one statement each. Here the jobs freed by one batch
// of transitions are fetched together, and the jobs a batch finishes are completed in it.
//
// What work() did for a job is done here with pg-boss's own calls, each fenced to the
// attempt this worker fetched (its retryCount): the heartbeat (touch) while the job is held,
// which aborts the job's signal when the claim is gone; its expiry, which aborts the signal
// so the call ends and the attempt is recorded as failed; fail() when the handler throws,
// which retries it with the queue's backoff; complete() for a job the handler did not
// complete itself. The loop is woken by the queue's notice that a committed transaction
// queued task jobs (carried by the run feed's connection), by a slot freed after a full
// fetch, by the end of a failed job's backoff, and by a poll, for what none of these announces
// (a notice lost while the listener reconnected, a job failed by another party).

/** What the handler answers: whether the job was completed in the transaction of its task's last transition. */
export type JobHandler<T> = (job: Job<T>) => Promise<boolean>;

export interface FetchOptions {
  /** Jobs held at once. */
  concurrency: number;
  /** How often to look for jobs nothing announced. */
  pollSeconds: number;
  /** How often a held job's heartbeat is refreshed (half the queue's heartbeatSeconds). */
  heartbeatSeconds: number;
}

export interface TaskFetcher {
  /** Stops fetching, waits up to `graceMs` for the jobs in hand, then fails what is left so another worker takes it at once. */
  stop(graceMs: number): Promise<void>;
  /** Stops fetching and refreshing heartbeats at once, as a killed process would; the jobs in hand stay claimed until they expire. */
  kill(): void;
}

interface Held {
  job: Job<unknown>;
  claim: AbortController;
  expiry: NodeJS.Timeout;
  done: Promise<void>;
}

const fenced = (job: Job<unknown>) => ({ id: job.id, retryCount: job.retryCount });

export async function fetchTaskJobs<T>(handle: DatabaseHandle, boss: PgBoss, options: FetchOptions, handler: JobHandler<T>): Promise<TaskFetcher> {
  const held = new Map<string, Held>();
  let stopped = false;
  /** Woken while a fetch was under way: fetch again when it ends. */
  let again = false;
  /** The last fetch filled every free slot, so more may be waiting: a freed slot fetches at once. */
  let full = false;
  let scheduled = false;
  const report = (what: string) => (error: unknown) => console.error(`[plangate] task fetcher, ${what}:`, error instanceof Error ? error.message : error);

  // Completions of jobs the handler left to the loop: one statement for those that end in the same turn.
  let completing: { jobs: Job<unknown>[]; done: Promise<void> } | null = null;
  const complete = (job: Job<unknown>): Promise<void> => {
    if (completing) {
      completing.jobs.push(job);
      return completing.done;
    }
    const batch: { jobs: Job<unknown>[]; done: Promise<void> } = { jobs: [job], done: Promise.resolve() };
    completing = batch;
    batch.done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      completing = null;
      return boss.complete(TASK_QUEUE, batch.jobs.map(fenced)).then(() => undefined, report('complete'));
    });
    return batch.done;
  };

  const run = (job: Job<T>) => {
    const claim = new AbortController();
    job.signal = claim.signal;
    // pg-boss's bound on a handler: past it the call is aborted and the attempt recorded as failed.
    const expiry = setTimeout(() => claim.abort(new Error(`handler execution exceeded ${job.expireInSeconds}s`)), job.expireInSeconds * 1000);
    expiry.unref();
    const done = handler(job).then(
      (completed) => (completed ? undefined : complete(job as Job<unknown>)),
      // Retried by pg-boss with the queue's backoff, or sent to the dead letter once its retries are used.
      (error: unknown) => boss.fail(TASK_QUEUE, [fenced(job as Job<unknown>)], error as object).then(() => wakeWhenDue(job.id), report('fail')),
    );
    held.set(job.id, { job: job as Job<unknown>, claim, expiry, done });
    void done.finally(() => {
      clearTimeout(expiry);
      held.delete(job.id);
      if (full) wake();
    });
  };

  /** The fetch under way, if any: a stop waits for it, and runs what it brings like the rest in hand. */
  let fetching: Promise<void> | null = null;
  const fetchNow = () => {
    if (stopped) return;
    if (fetching) {
      again = true;
      return;
    }
    const free = options.concurrency - held.size;
    if (free <= 0) return;
    again = false;
    fetching = boss
      .fetch<T>(TASK_QUEUE, { batchSize: free })
      .then((jobs) => {
        full = jobs.length === free;
        jobs.forEach(run);
      }, report('fetch'))
      .finally(() => {
        fetching = null;
        if (again) wake();
      });
  };

  /** Fetches on the next turn, so the slots freed and the events of one batch make one fetch. */
  function wake() {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      fetchNow();
    });
  }

  /**
   * A failed job that pg-boss will deliver again is fetched as soon as its backoff runs out
   * (the time pg-boss chose, read back), not at the next poll. No NOTIFY announces it.
   */
  const wakeWhenDue = async (id: string) => {
    const again = await boss.getJobById(TASK_QUEUE, id).catch(() => null);
    if (stopped || again?.state !== 'retry') return;
    const timer = setTimeout(wake, Math.max(0, new Date(again.startAfter).getTime() - Date.now()) + 20);
    timer.unref();
  };

  const heartbeat = async () => {
    const jobs = [...held.values()].filter((h) => !h.claim.signal.aborted);
    if (!jobs.length) return;
    // The ids it refreshed (pg-boss answers them beside the count, which its type leaves out).
    const { settled } = (await boss.touch(TASK_QUEUE, jobs.map((h) => fenced(h.job)))) as { settled?: string[] };
    if (!settled) return;
    // Fenced to this worker's attempts: a job it did not refresh was failed or taken by someone else.
    const refreshed = new Set(settled);
    for (const h of jobs) if (!refreshed.has(h.job.id)) h.claim.abort(new Error(`job ${h.job.id} is no longer active under this worker's claim`));
  };

  const feed = await runFeed(handle).catch(() => null);
  const onQueued = (queue: string) => queue === TASK_QUEUE && wake();
  feed?.emitter.on('queued', onQueued);
  const poll = setInterval(wake, options.pollSeconds * 1000);
  poll.unref();
  let beating = false;
  const beat = setInterval(() => {
    if (beating) return;
    beating = true;
    heartbeat()
      .catch(report('heartbeat'))
      .finally(() => {
        beating = false;
      });
  }, options.heartbeatSeconds * 1000);
  beat.unref();
  wake();

  const quit = () => {
    stopped = true;
    clearInterval(poll);
    clearInterval(beat);
    feed?.emitter.off('queued', onQueued);
  };

  return {
    async stop(graceMs) {
      quit();
      await fetching;
      const inHand = [...held.values()];
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(inHand.map((h) => h.done)), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      const left = [...held.values()];
      if (!left.length) return;
      // Still running: failed back to the queue (another worker takes it), and their calls aborted.
      await boss.fail(TASK_QUEUE, left.map((h) => fenced(h.job)), { message: 'Plangate: the worker stopped during the job' }).catch(report('fail'));
      for (const h of left) h.claim.abort(new Error('The worker stopped'));
    },
    kill() {
      quit();
      for (const h of held.values()) clearTimeout(h.expiry);
    },
  };
}
