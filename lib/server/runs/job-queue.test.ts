import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db/client';
import { testDatabases } from '../platform/db/test-databases';
import { DEAD_TASK_QUEUE, enqueueTaskJobs, getJobQueue, jobFailureMessage, jobsIn, stopJobQueue, TASK_QUEUE } from './job-queue';

// pg-boss on both databases, as the run engine uses it: task jobs are queued in the same
// transaction as the rows they belong to (both commit or neither does), and a task job
// pg-boss fails on its own lands in the dead-letter queue the run workers reconcile.

describe('the reason pg-boss gives for a job it failed', () => {
  it('is read from a timed-out handler and from the expiry sweep alike, and is absent otherwise', () => {
    expect(jobFailureMessage({ message: 'handler execution exceeded 2s' })).toBe('handler execution exceeded 2s');
    expect(jobFailureMessage({ value: { message: 'job timed out' } })).toBe('job timed out');
    expect(jobFailureMessage(null)).toBeUndefined();
    expect(jobFailureMessage({ value: 42 })).toBeUndefined();
  });
});

describe.each(testDatabases())('the job queue on $name', (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
    await handle.db.execute(sql`CREATE TABLE queue_probe (id text primary key)`);
  }, 60_000);
  afterAll(async () => {
    await stopJobQueue(handle);
    await handle.close();
  });

  it('queues task jobs in the same transaction as the rows they belong to', async () => {
    const boss = await getJobQueue(handle);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO queue_probe VALUES ('rolled-back')`);
        await enqueueTaskJobs(boss, [{ data: { probe: 'rolled-back' } }], jobsIn(handle, tx));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO queue_probe VALUES ('kept')`);
      await enqueueTaskJobs(boss, [{ data: { probe: 'kept-1' } }, { data: { probe: 'kept-2' } }], jobsIn(handle, tx));
    });
    const jobs = await boss.findJobs<{ probe: string }>(TASK_QUEUE, { limit: 10 });
    expect(jobs.map((job) => job.data.probe).sort()).toEqual(['kept-1', 'kept-2']);
    const rows = await handle.db.execute(sql`SELECT id FROM queue_probe`);
    expect((rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual(['kept']);
  }, 60_000);

  it('puts a task job pg-boss fails for good into the dead-letter queue, with its data', async () => {
    const boss = await getJobQueue(handle);
    const id = randomUUID();
    await boss.insert(TASK_QUEUE, [{ id, data: { probe: 'doomed' }, retryLimit: 0 }]);
    const fetched = await boss.fetch<{ probe: string }>(TASK_QUEUE, { batchSize: 10 });
    expect(fetched.map((job) => job.id)).toContain(id);
    await boss.fail(TASK_QUEUE, id, { message: 'job heartbeat timeout' });
    const dead = await boss.findJobs<{ probe: string }>(DEAD_TASK_QUEUE, { data: { probe: 'doomed' }, limit: 10 });
    expect(dead).toHaveLength(1);
  }, 60_000);
});
