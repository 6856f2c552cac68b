import { randomUUID } from 'node:crypto';
import type { Job, PgBoss } from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db/client';
import { testDatabases } from '../platform/db/test-databases';
import { enqueueTaskJobs, getJobQueue, jobsIn, stopJobQueue, TASK_QUEUE } from './job-queue';
import { closeRunFeed } from './run-events';
import { fetchTaskJobs, type TaskFetcher } from './task-fetcher';

// The task queue's fetch loop on both databases, as pg-boss's own work() would behave for a
// job: woken by a committed queue, a held job's claim watched (heartbeat, expiry), a throw
// retried, a stop handing back what is still in hand; and the batching it exists for.

interface Probe {
  probe: string;
}

const waitFor = async (what: string, done: () => boolean | Promise<boolean>, ms = 10_000) => {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 20))) if (await done()) return;
  throw new Error(`still waiting for ${what}`);
};

describe.each(testDatabases())('the task fetch loop on $name', (database) => {
  let handle: DatabaseHandle;
  let boss: PgBoss;
  let fetcher: TaskFetcher | undefined;
  const queue = (jobs: Array<{ probe: string; retryLimit?: number; retryDelay?: number; expireInSeconds?: number }>) =>
    handle.db.transaction(async (tx) => {
      await enqueueTaskJobs(
        boss,
        jobs.map(({ probe, ...options }) => ({ id: randomUUID(), data: { probe }, retryDelay: 0, ...options })),
        jobsIn(handle, tx),
      );
    });
  const stateOf = async (probe: string) => (await boss.findJobs<Probe>(TASK_QUEUE, { data: { probe }, limit: 5 }))[0]?.state;
  const start = async (handler: (job: Job<Probe>) => Promise<boolean>, options: Partial<Parameters<typeof fetchTaskJobs>[2]> = {}) => {
    fetcher = await fetchTaskJobs<Probe>(handle, boss, { concurrency: 4, pollSeconds: 30, heartbeatSeconds: 5, ...options }, handler);
    return fetcher;
  };

  beforeAll(async () => {
    handle = await database.open();
    boss = await getJobQueue(handle);
  }, 60_000);
  afterEach(async () => {
    fetcher?.kill();
    fetcher = undefined;
    await boss.deleteAllJobs(TASK_QUEUE);
  });
  afterAll(async () => {
    await stopJobQueue(handle);
    await closeRunFeed(handle);
    await handle.close();
  });

  it('is woken by a transaction that queued jobs, without waiting for its poll, and fetches them together', async () => {
    const fetchedTogether: string[][] = [];
    let batch: string[] = [];
    await start(async (job) => {
      batch.push(job.data.probe);
      if (batch.length === 1) setImmediate(() => (fetchedTogether.push(batch), (batch = [])));
      return false;
    });
    // Its first fetch, at start, finds nothing; the jobs come after. The poll is 30 s away.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await queue([{ probe: 'a' }, { probe: 'b' }, { probe: 'c' }]);
    await waitFor('the three jobs completed', async () => (await Promise.all(['a', 'b', 'c'].map(stateOf))).every((state) => state === 'completed'));
    expect(fetchedTogether.map((batch) => batch.sort())).toEqual([['a', 'b', 'c']]);
  }, 30_000);

  it('holds no more jobs than its concurrency, and takes the next as a slot frees', async () => {
    let held = 0;
    let most = 0;
    await queue(Array.from({ length: 10 }, (_, i) => ({ probe: `n${i}` })));
    await start(
      async () => {
        most = Math.max(most, ++held);
        await new Promise((resolve) => setTimeout(resolve, 30));
        held--;
        return false;
      },
      { concurrency: 3 },
    );
    await waitFor('all ten completed', async () => (await boss.findJobs<Probe>(TASK_QUEUE, { limit: 20 })).every((job) => job.state === 'completed'));
    expect(most).toBe(3);
  }, 30_000);

  it('leaves alone a job its handler completed, and takes a job its handler threw again once its retry delay ran out, not at the next poll', async () => {
    const seen: Array<[string, number]> = [];
    const deliveredAt: number[] = [];
    await start(async (job) => {
      seen.push([job.data.probe, job.retryCount]);
      if (job.data.probe === 'flaky') deliveredAt.push(Date.now());
      if (job.data.probe === 'self') {
        await boss.complete(TASK_QUEUE, [{ id: job.id, retryCount: job.retryCount }], { by: 'handler' });
        return true;
      }
      if (job.retryCount === 0) throw new Error('the first attempt fails');
      return false;
    });
    // The poll is 30 s away: only the loop's own timer for the retry can bring it back in time.
    await queue([{ probe: 'self' }, { probe: 'flaky', retryLimit: 1, retryDelay: 1 }]);
    await waitFor('both completed', async () => (await stateOf('self')) === 'completed' && (await stateOf('flaky')) === 'completed');
    const [self] = await boss.findJobs<Probe>(TASK_QUEUE, { data: { probe: 'self' }, limit: 1 });
    expect(self.output).toEqual({ by: 'handler' });
    expect(seen.filter(([probe]) => probe === 'flaky')).toEqual([
      ['flaky', 0],
      ['flaky', 1],
    ]);
    // After its delay of a second, not before.
    expect(deliveredAt[1] - deliveredAt[0]).toBeGreaterThanOrEqual(900);
  }, 30_000);

  const abortedWith = (aborted: Map<string, string>) => (job: Job<Probe>) =>
    new Promise<boolean>((resolve) =>
      job.signal.addEventListener('abort', () => {
        aborted.set(job.data.probe, String((job.signal.reason as Error).message));
        resolve(false);
      }),
    );

  it('aborts a held job whose claim was taken away, at its next heartbeat', async () => {
    const aborted = new Map<string, string>();
    await start(abortedWith(aborted), { heartbeatSeconds: 0.2 });
    await queue([{ probe: 'taken' }, { probe: 'kept' }]);
    await waitFor('both held', async () => (await stateOf('taken')) === 'active' && (await stateOf('kept')) === 'active');
    const [taken] = await boss.findJobs<Probe>(TASK_QUEUE, { data: { probe: 'taken' }, limit: 1 });
    // Another party fails it (as pg-boss's supervisor does when the heartbeat stops).
    await boss.fail(TASK_QUEUE, taken.id, { message: 'failed elsewhere' });
    await waitFor('it is aborted', () => aborted.has('taken'));
    expect(aborted.get('taken')).toMatch(/no longer active under this worker's claim/);
    // Its heartbeats kept the other one's claim.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(aborted.has('kept')).toBe(false);
    expect(await stateOf('kept')).toBe('active');
  }, 30_000);

  it("aborts a held job whose time ran out, before the queue's sweep notices", async () => {
    const aborted = new Map<string, string>();
    // No heartbeat within the test: only the loop's own bound can abort it.
    await start(abortedWith(aborted), { heartbeatSeconds: 60 });
    await queue([{ probe: 'slow', expireInSeconds: 1 }]);
    await waitFor('it is aborted', () => aborted.has('slow'));
    expect(aborted.get('slow')).toMatch(/exceeded 1s/);
  }, 30_000);

  it('hands back on stop what is still in hand after the grace, so another worker takes it at once', async () => {
    let signal: AbortSignal | undefined;
    const stopping = await start((job) => {
      signal = job.signal;
      return new Promise<boolean>(() => undefined);
    });
    await queue([{ probe: 'stuck', retryLimit: 2 }]);
    await waitFor('it is held', async () => (await stateOf('stuck')) === 'active');
    await stopping.stop(200);
    fetcher = undefined;
    expect(signal?.aborted).toBe(true);
    const [job] = await boss.findJobs<Probe>(TASK_QUEUE, { data: { probe: 'stuck' }, limit: 1 });
    expect(job.state).toBe('retry');
  }, 30_000);
});
