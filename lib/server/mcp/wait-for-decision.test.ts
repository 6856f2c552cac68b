import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { decide, submitForReview } from '../approval/approval-service';
import type { Database } from '../platform/db/client';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan } from '../plans/plan-service';
import { FETCH_THEN_SUMMARISE, principal } from '../platform/test-support';
import { waitForDecision } from './wait-for-decision';

// The wait an agent makes for a person's decision: it answers as soon as the plan leaves
// review, not before; it gives up at its timeout; and it stops reading the database the
// moment its caller goes away.

const editor = principal('eddie', 'editor');
const approver = principal('alice', 'approver');

/** The database, counting the reads made through it: a poll is one read of the plan. */
function counted(db: Database) {
  const reads = { count: 0 };
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'select') reads.count += 1;
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: proxy, reads };
}

describe.each(testDatabases())('waiting for a decision on $name', (database) => {
  const db = useTestDatabase(database);

  async function inReview() {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Waited on', plan: FETCH_THEN_SUMMARISE }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    return created;
  }

  it('answers with the decision once a person makes it, reporting progress while it waits', async () => {
    const { id, content_hash } = await inReview();
    const progress: string[] = [];
    const waiting = waitForDecision(db(), id, {
      timeoutMs: 20_000,
      pollMs: 50,
      signal: new AbortController().signal,
      onProgress: async (_waited, gate) => void progress.push(gate.status),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await decide(db(), id, 'approved', { revision: 1, content_hash, comment: 'Go' }, approver);
    const outcome = await waiting;
    expect(outcome).toMatchObject({ status: 'approved', decided: true, timed_out: false, revision: 1, content_hash });
    expect(outcome.reviews.map((review) => [review.reviewer, review.decision, review.comment])).toEqual([['alice', 'approved', 'Go']]);
    expect(progress[0]).toBe('in_review');
  });

  it('answers at once for a plan nobody submitted, and says so', async () => {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Never submitted', plan: FETCH_THEN_SUMMARISE }), editor.username);
    const started = Date.now();
    const outcome = await waitForDecision(db(), created.id, { timeoutMs: 20_000, signal: new AbortController().signal });
    expect(outcome).toMatchObject({ status: 'draft', decided: false, timed_out: false });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('gives up at its timeout with the plan still in review', async () => {
    const { id } = await inReview();
    const outcome = await waitForDecision(db(), id, { timeoutMs: 300, pollMs: 50, signal: new AbortController().signal });
    expect(outcome).toMatchObject({ status: 'in_review', decided: false, timed_out: true });
  });

  it('stops polling as soon as its caller goes away', async () => {
    const { id } = await inReview();
    const { db: watched, reads } = counted(db());
    const hangUp = new AbortController();
    const waiting = waitForDecision(watched, id, { timeoutMs: 20_000, pollMs: 50, signal: hangUp.signal });
    await expect.poll(() => reads.count).toBeGreaterThan(2);
    hangUp.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
    const after = reads.count;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads.count).toBe(after);
  });

  it('refuses a plan that does not exist', async () => {
    await expect(waitForDecision(db(), 'no-such-plan', { timeoutMs: 1_000, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'not_found' });
  });
});
