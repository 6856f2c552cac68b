import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { FETCH_THEN_SUMMARISE, refusal } from '../platform/test-support';
import { listTaskViews, setTaskViewed } from './task-views-service';

describe.each(testDatabases())('task views service on $name', (database) => {
  const db = useTestDatabase(database);

  async function twoRevisions() {
    const plan = await createPlan(db(), CreatePlanRequest.parse({ title: 'Viewed marks', plan: FETCH_THEN_SUMMARISE }), 'eddie');
    const head = await getPlan(db(), plan.id);
    const tasks = [...head.plan.planned_tasks, { ...head.plan.planned_tasks[1], task_id: 'report', dependencies: ['summarise'] }];
    await savePlan(db(), plan.id, SavePlanRequest.parse({ base_revision: 1, plan: { ...head.plan, planned_tasks: tasks } }), 'eddie');
    return plan.id;
  }

  it('keeps each user their own marks, per revision', async () => {
    const planId = await twoRevisions();
    const r1 = { planId, revision: 1 };
    const r2 = { planId, revision: 2 };
    await setTaskViewed(db(), { ...r2, taskId: 'summarise', viewed: true }, 'alice');
    await setTaskViewed(db(), { ...r2, taskId: 'fetch', viewed: true }, 'alice');
    await setTaskViewed(db(), { ...r2, taskId: 'report', viewed: true }, 'bob');

    expect(await listTaskViews(db(), r2, 'alice')).toEqual(['summarise', 'fetch']);
    expect(await listTaskViews(db(), r2, 'bob')).toEqual(['report']);
    // A mark on revision 2 says nothing about revision 1: a new revision starts unviewed.
    expect(await listTaskViews(db(), r1, 'alice')).toEqual([]);
    await setTaskViewed(db(), { ...r1, taskId: 'fetch', viewed: true }, 'alice');
    expect(await listTaskViews(db(), r1, 'alice')).toEqual(['fetch']);
    expect(await listTaskViews(db(), r2, 'alice')).toEqual(['summarise', 'fetch']);
  });

  it('unmarks one task, and marking twice or unmarking an unmarked task changes nothing', async () => {
    const planId = await twoRevisions();
    const r2 = { planId, revision: 2 };
    expect(await setTaskViewed(db(), { ...r2, taskId: 'fetch', viewed: true }, 'alice')).toEqual({ taskId: 'fetch', viewed: true });
    await setTaskViewed(db(), { ...r2, taskId: 'fetch', viewed: true }, 'alice');
    await setTaskViewed(db(), { ...r2, taskId: 'report', viewed: true }, 'alice');
    await setTaskViewed(db(), { ...r2, taskId: 'report', viewed: true }, 'bob');
    expect(await listTaskViews(db(), r2, 'alice')).toEqual(['fetch', 'report']);

    expect(await setTaskViewed(db(), { ...r2, taskId: 'report', viewed: false }, 'alice')).toEqual({ taskId: 'report', viewed: false });
    await setTaskViewed(db(), { ...r2, taskId: 'summarise', viewed: false }, 'alice');
    expect(await listTaskViews(db(), r2, 'alice')).toEqual(['fetch']);
    expect(await listTaskViews(db(), r2, 'bob')).toEqual(['report']);
  });

  it('refuses a task the revision does not hold, and an unknown plan or revision, changing nothing', async () => {
    const planId = await twoRevisions();
    // `report` exists in revision 2 only.
    const missing = await refusal(setTaskViewed(db(), { planId, revision: 1, taskId: 'report', viewed: true }, 'alice'));
    expect(missing.status).toBe(422);
    expect(missing.message).toContain('Revision 1');
    expect(missing.message).toContain('"report"');
    // Look-alikes of a task id are not the task (containment compares whole values).
    await refusal(setTaskViewed(db(), { planId, revision: 2, taskId: 'summ', viewed: true }, 'alice'));
    expect(await listTaskViews(db(), { planId, revision: 1 }, 'alice')).toEqual([]);
    expect(await listTaskViews(db(), { planId, revision: 2 }, 'alice')).toEqual([]);

    expect((await refusal(setTaskViewed(db(), { planId, revision: 3, taskId: 'fetch', viewed: true }, 'alice'))).status).toBe(404);
    expect((await refusal(setTaskViewed(db(), { planId, revision: 3, taskId: 'fetch', viewed: false }, 'alice'))).status).toBe(404);
    expect((await refusal(listTaskViews(db(), { planId, revision: 3 }, 'alice'))).status).toBe(404);
    expect((await refusal(listTaskViews(db(), { planId: 'no-such-plan', revision: 1 }, 'alice'))).status).toBe(404);
  });
});
