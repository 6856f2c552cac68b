import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { testDatabases } from '../db/test-databases';
import { getJobQueue, jobsIn, stopJobQueue, TASK_QUEUE } from './job-queue';

// pg-boss on both databases: a flow enqueued inside a transaction commits or rolls back
// with the transaction's own rows, and dependents run only after their parents.

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

  it('enqueues a flow in the same transaction as the rows it belongs to, and runs parents first', async () => {
    const boss = await getJobQueue(handle);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO queue_probe VALUES ('rolled-back')`);
        await boss.flow(
          [
            { ref: 'x', name: TASK_QUEUE, data: { probe: 'rolled-back' } },
            { ref: 'y', name: TASK_QUEUE, data: { probe: 'rolled-back' }, dependsOn: ['x'] },
          ],
          { db: jobsIn(handle, tx) },
        );
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO queue_probe VALUES ('kept')`);
      await boss.flow(
        [
          { ref: 'a', name: TASK_QUEUE, data: { probe: 'a' } },
          { ref: 'b', name: TASK_QUEUE, data: { probe: 'b' }, dependsOn: ['a'] },
        ],
        { db: jobsIn(handle, tx) },
      );
    });
    const seen: string[] = [];
    await boss.work<{ probe: string }>(TASK_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      seen.push(job.data.probe);
    });
    await expect.poll(() => seen, { timeout: 20_000, interval: 200 }).toEqual(['a', 'b']);
    await boss.offWork(TASK_QUEUE);
    const rows = await handle.db.execute(sql`SELECT id FROM queue_probe`);
    expect((rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual(['kept']);
  }, 60_000);
});
