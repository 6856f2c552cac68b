import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { diffPlans } from '@/lib/plan';
import { readGate } from '../approval/approval-service';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { principal } from '../platform/test-support';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { readReviewFacts } from './review-facts';

// The review page reads a revision in a compute worker (validation, resources, diff, rows) and
// hands the gate what it worked out. What it reads is what reading the plan on the server's
// thread gave, cut to what the page draws; the gate uses it only while it is still the head.

const editor = principal('eddie', 'editor');
const TASKS = 150;
const ROWS = 40;
// Every task waits on one that is not in the plan: an error each.
const tasks = Array.from({ length: TASKS }, (_, i) => ({
  task_id: `t${i}`,
  description: `Step ${i}`,
  execution_type: 'llm' as const,
  dependencies: i ? [`t${i - 1}`, `gone${i}`] : ['gone0'],
}));

describe.each(testDatabases())('the review page reading on $name', (database) => {
  const db = useTestDatabase(database);

  it('gives the gate its validation and resources, the page its first rows (and every name when they hold every task), and the diff from the base', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Reviewed', plan: { planned_tasks: tasks } }), editor.username);
    const first = await getPlan(db(), id);
    const changed = first.plan.planned_tasks.map((task) => (task.task_id === 't7' ? { ...task, description: 'Step seven' } : task));
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...first.plan, planned_tasks: changed } }), editor.username);
    const head = await getPlan(db(), id);

    const read = await readReviewFacts(db(), id, 2, 1, ROWS);
    const onThread = await readGate(db(), id);
    expect(read.taskCount).toBe(TASKS);
    expect(read.tasks).toEqual(head.plan.planned_tasks.slice(0, ROWS));
    expect(read.names).toBeNull();
    expect((await readReviewFacts(db(), id, 2, 1, TASKS)).names?.map((task) => task.description)).toEqual(head.plan.planned_tasks.map((task) => task.description));
    expect(read.validation).toEqual(onThread.validation);
    expect(onThread.state.errorCount).toBe(TASKS);
    expect(read.resources).toEqual(onThread.resources);
    expect(read.diff).toEqual(diffPlans(first, head));
    expect(read.diff?.changed).toEqual([{ task_id: 't7', fields: [expect.objectContaining({ field: 'description' })] }]);
    expect(read.basePositions).toEqual(first.view.positions);

    // The gate given these facts answers as it does when it works them out itself.
    const given = await readGate(db(), id, false, { revision: 2, ...read });
    expect(given.state).toEqual(onThread.state);
    expect(given.resources).toEqual(onThread.resources);
    expect(given.validation).toEqual(onThread.validation);
    // Its own base: no diff, no positions.
    expect(await readReviewFacts(db(), id, 2, 2, ROWS)).toMatchObject({ diff: null, basePositions: {} });
  });

  it('is not used by the gate once the head has moved on, and a base that does not exist is a 404', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Moved on', plan: { planned_tasks: tasks.slice(0, 3) } }), editor.username);
    const stale = await readReviewFacts(db(), id, 1, 1, ROWS);
    const first = await getPlan(db(), id);
    // Revision 2 drops a task, and its error with it.
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...first.plan, planned_tasks: first.plan.planned_tasks.slice(0, 2) } }), editor.username);
    const gate = await readGate(db(), id, false, { revision: 1, ...stale });
    expect(gate.state.headRevision).toBe(2);
    expect(gate.state.errorCount).toBe(2);
    expect(stale.validation.issues.filter((issue) => issue.severity === 'error')).toHaveLength(3);
    await expect(readReviewFacts(db(), id, 2, 9, ROWS)).rejects.toMatchObject({ status: 404, message: expect.stringContaining('Revision 9') });
  });
});
