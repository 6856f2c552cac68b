import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refusal } from '../test-support';
import { databaseStatus } from './database-probe';
import { testDatabases, useTestDatabase } from './test-databases';

// Health's view of the database on a real one: a probe that answers is "ok"; one queued
// behind a long transaction (PGlite's single connection) is "busy" without health waiting
// for it; a database that fails, or a probe stuck past its bound, is a 503.

describe.each(testDatabases())('database probe on $name', (database) => {
  const db = useTestDatabase(database);

  it('says ok with the time the probe took', async () => {
    const status = await databaseStatus(db(), 5_000);
    expect(status.status).toBe('ok');
    expect(status.ms).toBeGreaterThanOrEqual(0);
  });

  it('answers 503 naming the failure when the database cannot answer', async () => {
    const closed = await database.open();
    await closed.close();
    const error = await refusal(databaseStatus(closed.db, 5_000));
    expect([error.status, error.code]).toEqual([503, 'unavailable']);
    expect(error.message).toMatch(/^The database is not answering: /);
  });

  if (database.name === 'pglite') {
    it('says busy, without waiting, while a transaction holds the one connection, then stuck (503) past the bound, then ok again', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inside!: () => void;
      const started = new Promise<void>((resolve) => (inside = resolve));
      const transaction = db().transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        inside();
        await held;
      });
      await started;
      try {
        const busy = await databaseStatus(db(), 20);
        expect(busy.status).toBe('busy');
        // The same probe is still waiting: no second one is queued behind it.
        await new Promise((resolve) => setTimeout(resolve, 60));
        const again = await databaseStatus(db(), 20);
        expect(again).toMatchObject({ status: 'busy' });
        expect(again.ms).toBeGreaterThan(busy.ms);
        const stuck = await refusal(databaseStatus(db(), 20, 50));
        expect([stuck.status, stuck.message]).toEqual([503, expect.stringMatching(/^The database has not answered a probe for \d+ s$/)]);
      } finally {
        release();
        await transaction;
      }
      expect((await databaseStatus(db(), 5_000)).status).toBe('ok');
    });
  }
});
