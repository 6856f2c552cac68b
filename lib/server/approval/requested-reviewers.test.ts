import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SubmitRequest } from '@/lib/api/gate-schemas';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { createUser } from '../auth/users';
import { inboxItems, plans, reviewRequests } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { listInbox } from '../inbox/inbox-service';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { decide, getGate, planAudit, reRequestReview, submitForReview } from './approval-service';
import { previousReviewers, reviewerCandidates, reviewsRequestedFrom } from './requested-reviewers';

const editor = principal('eddie', 'editor');
const approverSubmitter = principal('alice', 'approver');

describe('the submit request', () => {
  it('takes at most 20 reviewers, by username, each named once', () => {
    expect(SubmitRequest.parse({ reviewers: ['Bob', 'bob', 'carol'] }).reviewers).toEqual(['bob', 'carol']);
    expect(SubmitRequest.safeParse({ reviewers: Array.from({ length: 21 }, (_, i) => `user${i}`) }).error?.issues[0].message).toBe(
      'At most 20 reviewers can be requested',
    );
    expect(SubmitRequest.safeParse({ reviewers: ['no spaces allowed'] }).success).toBe(false);
  });
});

describe.each(testDatabases())('requested reviewers on $name', (database) => {
  const db = useTestDatabase(database);

  beforeAll(async () => {
    for (const [username, role] of [
      ['alice', 'approver'],
      ['bob', 'approver'],
      ['root', 'admin'],
      ['eddie', 'editor'],
      ['erin', 'editor'],
      ['vera', 'viewer'],
    ] as const) {
      await createUser(db(), { username, password: `${username}-password`, role }, 'setup');
    }
    await createUser(db(), { username: 'robot', role: 'admin', service: true }, 'setup');
  });

  const draft = (title = 'Requested') => createPlan(db(), CreatePlanRequest.parse({ title, plan: FETCH_THEN_SUMMARISE }), editor.username);

  it('offers the approvers and admins who are people, never the submitter', async () => {
    expect((await reviewerCandidates(db(), 'alice')).map((c) => c.username)).toEqual(['bob', 'root']);
    expect((await reviewerCandidates(db())).map((c) => [c.username, c.role])).toEqual([
      ['alice', 'approver'],
      ['bob', 'approver'],
      ['root', 'admin'],
    ]);
  });

  it.each([
    [['zed'], 'There is no user named "zed". Nothing was submitted.'],
    [['vera'], '"vera" has the viewer role; only approvers and admins can review. Nothing was submitted.'],
    [['erin'], '"erin" has the editor role; only approvers and admins can review. Nothing was submitted.'],
    [['robot'], '"robot" is a service account and cannot decide on a plan. Nothing was submitted.'],
    [['bob', 'zed', 'vera'], 'There is no user named "zed" (and 1 more problem with the reviewers). Nothing was submitted.'],
  ])('refuses %j with a message naming the reviewer, and writes nothing', async (reviewers, message) => {
    const { id } = await draft();
    const error = await refusal(submitForReview(db(), id, { reviewers }, editor));
    expect([error.status, error.code, error.message]).toEqual([400, 'bad_request', message]);
    expect(error.details?.some((d) => d.path.startsWith('reviewers.'))).toBe(true);
    const [plan] = await db().select().from(plans).where(eq(plans.id, id));
    expect([plan.status, plan.submittedBy]).toEqual(['draft', null]);
    expect(await db().select().from(reviewRequests).where(eq(reviewRequests.planId, id))).toEqual([]);
    expect(await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).toEqual([]);
    expect((await planAudit(db(), id)).map((e) => e.kind)).toEqual(['created']);
  });

  it('refuses the submitter as their own reviewer', async () => {
    const { id } = await draft();
    const error = await refusal(submitForReview(db(), id, { reviewers: ['bob', 'alice'] }, approverSubmitter));
    expect(error.message).toBe('"alice" is submitting this plan and cannot review it; ask someone else. Nothing was submitted.');
    expect(error.details).toEqual([{ path: 'reviewers.1', message: '"alice" is submitting this plan and cannot review it; ask someone else' }]);
    expect((await getGate(db(), id)).status).toBe('draft');
    expect(await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).toEqual([]);
  });

  it("neither offers nor accepts an account tied by creation to the submitter (an admin's sock puppet)", async () => {
    await createUser(db(), { username: 'sock', password: 'sock-password', role: 'approver' }, 'root');
    expect((await reviewerCandidates(db(), 'root')).map((c) => c.username)).toEqual(['alice', 'bob']);
    expect((await reviewerCandidates(db(), 'alice')).map((c) => c.username)).toEqual(['bob', 'root', 'sock']);
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Root asks', plan: FETCH_THEN_SUMMARISE }), 'root');
    const error = await refusal(submitForReview(db(), id, { reviewers: ['sock'] }, principal('root', 'admin')));
    expect(error.message).toBe('"sock" counts as root under four-eyes (root made their account); ask someone else. Nothing was submitted.');
    expect((await getGate(db(), id)).status).toBe('draft');
  });

  it('records the requests with the submission, in the audit trail, the gate and each reviewer\'s inbox', async () => {
    const { id } = await draft('Asked by name');
    await submitForReview(db(), id, { reviewers: ['bob', 'root'] }, editor);

    const gate = await getGate(db(), id);
    expect(gate.status).toBe('in_review');
    expect(gate.requested_reviewers.map((r) => [r.reviewer, r.requested_by, r.revision])).toEqual([
      ['bob', 'eddie', 1],
      ['root', 'eddie', 1],
    ]);
    const submitted = (await planAudit(db(), id)).find((e) => e.kind === 'submitted');
    expect(submitted?.detail).toEqual({ reviewers: ['bob', 'root'] });

    for (const reviewer of ['bob', 'root']) {
      const [item] = (await listInbox(db(), reviewer, { limit: 50 })).items.filter((i) => i.plan_id === id);
      expect(item).toMatchObject({ kind: 'review_requested', actor: 'eddie', revision: 1, plan_title: 'Asked by name', read_at: null });
      expect(item.summary).toBe('eddie asked you to review r1 of “Asked by name”.');
    }
    expect((await listInbox(db(), 'alice', { limit: 50 })).items.filter((i) => i.plan_id === id)).toEqual([]);
    expect((await reviewsRequestedFrom(db(), 'bob')).map((r) => [r.id, r.requested_by])).toContainEqual([id, 'eddie']);
    expect((await reviewsRequestedFrom(db(), 'alice')).map((r) => r.id)).not.toContain(id);
  });

  it('submits without reviewers as before, telling no one by name', async () => {
    const { id } = await draft();
    await submitForReview(db(), id, {}, editor);
    expect((await getGate(db(), id)).requested_reviewers).toEqual([]);
    expect((await planAudit(db(), id)).find((e) => e.kind === 'submitted')?.detail).toEqual({});
    expect(await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).toEqual([]);
  });

  it('re-requests review from everyone who was asked or decided before, each told again, audited as a submission', async () => {
    const { id } = await draft('Asked again');
    // Nobody reviewed it yet: nothing to re-request, nothing written.
    const none = await refusal(reRequestReview(db(), id, { revision: 1, content_hash: (await getPlan(db(), id)).content_hash }, editor));
    expect([none.status, none.message]).toEqual([422, 'Nobody has reviewed this plan yet, so there is no one to ask again; submit it and choose reviewers instead. Nothing was submitted.']);
    expect((await getGate(db(), id)).status).toBe('draft');

    // bob is asked by name; root decides without being asked.
    const first = await submitForReview(db(), id, { reviewers: ['bob'] }, editor);
    await decide(db(), id, 'changes_requested', { revision: 1, content_hash: first.content_hash, comment: 'Shorter, please' }, principal('root', 'admin'));
    expect(await previousReviewers(db(), id, 'eddie')).toEqual(['bob', 'root']);
    // Someone who cannot be asked is left out: the submitter themself.
    expect(await previousReviewers(db(), id, 'root')).toEqual(['bob']);

    const head = await getPlan(db(), id);
    const saved = await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...head.plan, planned_tasks: head.plan.planned_tasks.slice(0, 1) } }), editor.username);
    expect(await reRequestReview(db(), id, { revision: 2, content_hash: saved.content_hash }, editor)).toMatchObject({ status: 'in_review', revision: 2 });

    const gate = await getGate(db(), id);
    expect(gate.requested_reviewers.map((r) => [r.reviewer, r.revision])).toEqual([
      ['bob', 2],
      ['root', 2],
    ]);
    expect((await planAudit(db(), id)).filter((e) => e.kind === 'submitted').map((e) => e.detail)).toEqual([{ reviewers: ['bob'] }, { reviewers: ['bob', 'root'], re_requested: true }]);
    for (const reviewer of ['bob', 'root']) {
      const [newest] = (await listInbox(db(), reviewer, { limit: 50 })).items.filter((i) => i.plan_id === id);
      expect(newest).toMatchObject({ kind: 'review_requested', revision: 2, read_at: null, summary: 'eddie asked you to review r2 of “Asked again” again.' });
    }
    // In review already: a second re-request is refused like a second submission, and tells no one.
    const twice = await refusal(reRequestReview(db(), id, { revision: 2, content_hash: saved.content_hash }, editor));
    expect([twice.status, twice.message]).toEqual([409, 'The plan is already in review.']);
    expect((await listInbox(db(), 'bob', { limit: 50 })).items.filter((i) => i.plan_id === id && i.revision === 2)).toHaveLength(1);
  });
});
