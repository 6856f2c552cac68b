import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import type { TaskDataInput } from '@/lib/plan';
import { verifyAudit } from '../audit/audit-log';
import { planReviews, plans } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { decide, getApprovedPlan, getGate, planAudit, submitForReview } from './approval-service';

const chain = FETCH_THEN_SUMMARISE;
const cyclic: TaskDataInput = {
  task_id: 'job-2',
  planned_tasks: [
    { task_id: 'a', description: 'A', execution_type: 'tool', tool_id: 'http_get', dependencies: ['b'] },
    { task_id: 'b', description: 'B', execution_type: 'tool', tool_id: 'http_get', dependencies: ['a'] },
  ],
};

const who = principal;
const editor = who('eddie', 'editor');
const approver = who('alice', 'approver');
const approver2 = who('bob', 'approver');

/** Runs `body` with PLANGATE_REQUIRED_APPROVALS set, restoring it after. */
async function withRequiredApprovals(count: number, body: () => Promise<void>) {
  const previous = process.env.PLANGATE_REQUIRED_APPROVALS;
  process.env.PLANGATE_REQUIRED_APPROVALS = String(count);
  try {
    await body();
  } finally {
    if (previous === undefined) delete process.env.PLANGATE_REQUIRED_APPROVALS;
    else process.env.PLANGATE_REQUIRED_APPROVALS = previous;
  }
}


describe.each(testDatabases())('approval gate on $name', (database) => {
  const db = useTestDatabase(database);

  async function inReview(plan: TaskDataInput = chain) {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Gate', plan }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    return created;
  }

  it('approves exactly the head revision and hands it to executors until a new revision voids it', async () => {
    const { id, content_hash } = await inReview();
    expect((await refusal(getApprovedPlan(db(), id))).code).toBe('not_approved');

    const decided = await decide(db(), id, 'approved', { revision: 1, content_hash, comment: 'Looks right' }, approver);
    expect(decided.status).toBe('approved');
    const approved = await getApprovedPlan(db(), id);
    expect(approved).toMatchObject({ revision: 1, content_hash });
    expect(approved.document.plan.planned_tasks.map((t) => t.task_id)).toEqual(['fetch', 'summarise']);
    expect(approved.approvals.map((a) => [a.reviewer, a.comment])).toEqual([['alice', 'Looks right']]);
    expect(approved.approvals[0].validation.valid).toBe(true);

    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, status: 'edited' } }), editor.username);
    expect((await getPlan(db(), id)).status).toBe('draft');
    const stale = await refusal(getApprovedPlan(db(), id));
    expect([stale.status, stale.code]).toEqual([409, 'stale']);
    const gate = await getGate(db(), id);
    expect(gate.reviews[0]).toMatchObject({ reviewer: 'alice', revision: 1 });
    expect(gate.reviews[0].superseded_at).not.toBeNull();

    const kinds = (await planAudit(db(), id)).map((e) => [e.kind, e.actor, e.revision]);
    expect(kinds).toEqual([
      ['created', 'eddie', 1],
      ['submitted', 'eddie', 1],
      // The decision's comment ("Looks right") is the decision's own, in its event: no thread.
      ['approved', 'alice', 1],
      ['revised', 'eddie', 2],
      ['superseded', 'eddie', 1],
    ]);
    expect((await verifyAudit(db())).ok).toBe(true);
  });

  it('refuses the author and the submitter of a revision as its approver (four-eyes)', async () => {
    const author = who('carol', 'approver');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Own work', plan: chain }), author.username);
    await submitForReview(db(), created.id, {}, approver2);
    const claim = { revision: 1, content_hash: created.content_hash, comment: '' };
    const own = await refusal(decide(db(), created.id, 'approved', claim, author));
    expect([own.status, own.message]).toEqual([403, 'You edited this plan since its last approval; someone else must approve revision 1.']);
    const submitter = await refusal(decide(db(), created.id, 'approved', claim, approver2));
    expect(submitter.status).toBe(403);
    expect((await decide(db(), created.id, 'approved', claim, approver)).status).toBe('approved');
  });

  it('refuses a stale claim, naming the revision that is now the head', async () => {
    const { id, content_hash } = await inReview();
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, status: 'x' } }), editor.username);
    const error = await refusal(decide(db(), id, 'approved', { revision: 1, content_hash, comment: '' }, approver));
    expect([error.status, error.code]).toEqual([409, 'stale']);
    expect(error.message).toContain('now at revision 2');
  });

  it('refuses to submit or approve a plan with validation errors', async () => {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Cyclic', plan: cyclic }), editor.username);
    const error = await refusal(submitForReview(db(), created.id, {}, editor));
    expect([error.status, error.message]).toEqual([422, 'The plan has 1 validation error; fix them before it can be submitted.']);
    expect((await getPlan(db(), created.id)).status).toBe('draft');
  });

  it('keeps a plan in review until the required number of approvals', async () => {
    await withRequiredApprovals(2, async () => {
      const { id, content_hash } = await inReview();
      const claim = { revision: 1, content_hash, comment: '' };
      expect((await decide(db(), id, 'approved', claim, approver)).status).toBe('in_review');
      expect((await refusal(decide(db(), id, 'approved', claim, approver))).message).toBe('You have already approved this revision.');
      expect((await refusal(getApprovedPlan(db(), id))).message).toContain('1 of 2 required approvals');
      expect((await decide(db(), id, 'approved', claim, approver2)).status).toBe('approved');
      expect((await getApprovedPlan(db(), id)).approvals).toHaveLength(2);
    });
  });

  it('lets no approver approve content they edited since the last approval, even under a later revision', async () => {
    const alice = who('alice', 'approver');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Layered', plan: chain }), alice.username);
    await savePlan(db(), created.id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, status: 'touched' } }), editor.username);
    const head = await getPlan(db(), created.id);
    await submitForReview(db(), created.id, {}, editor);
    const claim = { revision: 2, content_hash: head.content_hash, comment: '' };
    expect((await refusal(decide(db(), created.id, 'approved', claim, alice))).status).toBe(403);
    expect((await decide(db(), created.id, 'approved', claim, approver2)).status).toBe('approved');
  });

  it('voids earlier approvals on an objection, and hands off only an approved plan', async () => {
    await withRequiredApprovals(2, async () => {
      const { id, content_hash } = await inReview();
      const claim = { revision: 1, content_hash, comment: '' };
      await decide(db(), id, 'approved', claim, approver);
      // Lowering the requirement does not turn an unfinished review into a hand-off.
      process.env.PLANGATE_REQUIRED_APPROVALS = '1';
      expect((await refusal(getApprovedPlan(db(), id))).code).toBe('not_approved');
      process.env.PLANGATE_REQUIRED_APPROVALS = '2';
      await decide(db(), id, 'changes_requested', { ...claim, comment: 'No' }, approver2);
      await submitForReview(db(), id, {}, editor);
      expect((await decide(db(), id, 'approved', claim, who('carol', 'approver'))).status).toBe('in_review');
      const standing = (await getGate(db(), id)).reviews.filter((r) => r.decision === 'approved' && !r.superseded_at);
      expect(standing.map((r) => r.reviewer)).toEqual(['carol']);
    });
  });

  it('sends a plan back on request-changes and ends it on reject until a new revision', async () => {
    const { id, content_hash } = await inReview();
    const claim = { revision: 1, content_hash, comment: 'Split the fetch' };
    expect((await decide(db(), id, 'changes_requested', claim, approver)).status).toBe('changes_requested');
    await submitForReview(db(), id, { revision: 1, content_hash }, editor);
    expect((await decide(db(), id, 'rejected', claim, approver)).status).toBe('rejected');
    expect((await refusal(submitForReview(db(), id, {}, editor))).message).toContain('save a new revision');
  });

  it('never leaves an approval standing on a revision other than the head, over 20 approve-vs-edit races on one plan', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Race', plan: chain }), editor.username);
    const outcomes = { approvedThenSuperseded: 0, refusedAsStale: 0 };
    for (let round = 1; round <= 20; round++) {
      const head = await getPlan(db(), id);
      expect(head.revision).toBe(round);
      await submitForReview(db(), id, { revision: round, content_hash: head.content_hash }, editor);
      const [approval, edit] = await Promise.allSettled([
        decide(db(), id, 'approved', { revision: round, content_hash: head.content_hash, comment: `round ${round}` }, approver),
        savePlan(db(), id, SavePlanRequest.parse({ base_revision: round, plan: { ...chain, status: `race ${round}` } }), editor.username),
      ]);
      expect(edit.status).toBe('fulfilled');
      if (approval.status === 'rejected') {
        expect((approval.reason as AppError).code).toBe('stale');
        outcomes.refusedAsStale++;
      } else outcomes.approvedThenSuperseded++;
      const [plan] = await db().select().from(plans).where(eq(plans.id, id));
      const standing = await db()
        .select()
        .from(planReviews)
        .where(and(eq(planReviews.planId, id), isNull(planReviews.supersededAt)));
      expect(plan.headRevision).toBe(round + 1);
      expect(plan.status).toBe('draft');
      expect(standing).toEqual([]);
      expect((await refusal(getApprovedPlan(db(), id))).status).toBe(409);
    }
    expect(outcomes.approvedThenSuperseded + outcomes.refusedAsStale).toBe(20);
    expect((await verifyAudit(db())).ok).toBe(true);
  });
});
