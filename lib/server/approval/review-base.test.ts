import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { describeBase } from '@/lib/approval/review-base';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { setTaskViewed } from '../review/task-views-service';
import { FETCH_THEN_SUMMARISE, principal } from '../platform/test-support';
import { decide, submitForReview } from './approval-service';
import { reviewBaseFor } from './review-base';

// Which revision the review page compares the head with, for one reader: their last
// decision, else their last viewed marks, else the last approval, else revision 1, unless
// a valid ?base= says otherwise. Built from real decisions and marks on a real database.

const editor = principal('eddie', 'editor');
const alice = principal('alice', 'approver');
const bob = principal('bob', 'approver');

describe.each(testDatabases())('the review base on $name', (database) => {
  const db = useTestDatabase(database);

  async function draft(title: string) {
    return (await createPlan(db(), CreatePlanRequest.parse({ title, plan: FETCH_THEN_SUMMARISE }), editor.username)).id;
  }

  /** A new revision with one description changed, as the editor saves it. */
  async function edit(id: string, description: string) {
    const head = await getPlan(db(), id);
    const tasks = head.plan.planned_tasks.map((task) => (task.task_id === 'fetch' ? { ...task, description } : task));
    return savePlan(db(), id, SavePlanRequest.parse({ base_revision: head.revision, plan: { ...head.plan, planned_tasks: tasks } }), editor.username);
  }

  async function submitAndDecide(id: string, decision: 'approved' | 'changes_requested' | 'rejected', who = alice) {
    const submitted = await submitForReview(db(), id, {}, editor);
    await decide(db(), id, decision, { revision: submitted.revision, content_hash: submitted.content_hash, comment: '' }, who);
  }

  const baseOf = async (id: string, who: string, param?: string | string[]) => {
    const head = (await getPlan(db(), id)).revision;
    const chosen = await reviewBaseFor(db(), id, who, head, param);
    return { ...chosen.base, heading: describeBase(chosen.base, head), problem: chosen.problem };
  };

  it('starts at revision 1, then the last approval, then what the reader viewed, then what they decided on', async () => {
    const id = await draft('Base order');
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 1, reason: 'start', heading: 'Revision 1: every task' });
    await edit(id, 'Fetch v2'); // r2
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 1, reason: 'start', heading: 'Changes since revision 1' });

    await submitAndDecide(id, 'approved', bob); // bob approves r2
    await edit(id, 'Fetch v3'); // r3
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 2, reason: 'approved', heading: 'Changes since approved revision 2' });

    await setTaskViewed(db(), { planId: id, revision: 3, taskId: 'fetch', viewed: true }, 'alice');
    await edit(id, 'Fetch v4'); // r4
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 3, reason: 'your_view', heading: 'Changes since you last viewed it (revision 3)' });

    await submitAndDecide(id, 'changes_requested'); // alice on r4
    await edit(id, 'Fetch v5'); // r5
    await setTaskViewed(db(), { planId: id, revision: 5, taskId: 'fetch', viewed: true }, 'alice');
    await edit(id, 'Fetch v6'); // r6
    // A decision outranks a later viewed mark: the reader said what they wanted changed on r4.
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 4, reason: 'your_review', heading: 'Changes since your last review (revision 4)' });
    // Each reader has their own: bob decided on r2 only.
    expect(await baseOf(id, 'bob')).toMatchObject({ revision: 2, reason: 'your_review' });
    // Someone who did nothing gets the last approval.
    expect(await baseOf(id, 'carol')).toMatchObject({ revision: 2, reason: 'approved' });
  });

  it('ignores a decision on the head itself: the reader compares with an earlier one', async () => {
    const id = await draft('Decided head');
    await edit(id, 'Fetch v2');
    await submitAndDecide(id, 'rejected'); // alice on r2, the head
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 1, reason: 'start' });
    await edit(id, 'Fetch v3');
    expect(await baseOf(id, 'alice')).toMatchObject({ revision: 2, reason: 'your_review' });
  });

  it('takes any earlier revision or the last approval from ?base=, and says why it refuses any other value', async () => {
    const id = await draft('Chosen base');
    await edit(id, 'Fetch v2');
    await submitAndDecide(id, 'approved', bob);
    await edit(id, 'Fetch v3');
    await submitAndDecide(id, 'changes_requested');
    await edit(id, 'Fetch v4'); // head r4; alice decided r3, r2 approved
    expect(await baseOf(id, 'alice', '1')).toMatchObject({ revision: 1, reason: 'chosen', heading: 'Changes since revision 1', problem: null });
    expect(await baseOf(id, 'alice', 'approved')).toMatchObject({ revision: 2, reason: 'approved', problem: null });
    expect(await baseOf(id, 'alice', '')).toMatchObject({ revision: 3, reason: 'your_review', problem: null });

    const instead = 'Showing changes since your last review (revision 3) instead.';
    for (const bad of ['4', '0', '12', 'abc', '2.5', '-1', '01', ' 2']) {
      expect(await baseOf(id, 'alice', bad), bad).toEqual({
        revision: 3,
        reason: 'your_review',
        heading: 'Changes since your last review (revision 3)',
        problem: `"${bad}" is not a revision to compare revision 4 with: choose a revision from 1 to 3, or "approved". ${instead}`,
      });
    }
    expect((await baseOf(id, 'alice', ['1', '2'])).problem).toBe(`The link names 2 base revisions; name one. ${instead}`);
    expect((await baseOf(id, 'alice', 'x'.repeat(100))).problem).toContain(`"${'x'.repeat(39)}…" is not a revision`);

    const never = await draft('Never approved');
    await edit(never, 'Fetch v2');
    expect(await baseOf(never, 'alice', 'approved')).toMatchObject({
      revision: 1,
      problem: 'No revision before 2 was approved, so there is no approved revision to compare with. Showing changes since revision 1 instead.',
    });
    const single = await draft('One revision');
    expect(await baseOf(single, 'alice', '1')).toMatchObject({ revision: 1, problem: "Revision 1 is the plan's only revision, so there is nothing earlier to compare it with." });
  });
});
