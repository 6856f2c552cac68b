import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, getPlan } from './plan-service';
import { NEAR_AREA, getTasksNear } from './tasks-near';

// A link to a task of a big plan draws the tasks saved around it before the plan has
// loaded: they must be the revision's own tasks, as a whole read gives them, and only those
// near the task, however big the plan.

const COLUMNS = 40;
const ROWS = 30;
// Dense enough that more tasks lie in the area than the page draws.
const STEP = { x: 100, y: 50 };

function gridPlan() {
  const planned_tasks = Array.from({ length: COLUMNS * ROWS }, (_, i) => ({
    task_id: `t${i}`,
    description: `Task ${i}`,
    execution_type: 'tool',
    tool_id: i % 2 ? 'http_get' : 'llm_call',
    dependencies: i >= ROWS ? [`t${i - ROWS}`] : [],
  }));
  const positions = Object.fromEntries(planned_tasks.map((task, i) => [task.task_id, { x: Math.floor(i / ROWS) * STEP.x, y: (i % ROWS) * STEP.y }]));
  // One task without a saved position: there is nothing to draw it around.
  delete positions.t7;
  return CreatePlanRequest.parse({ title: 'Grid', plan: { task_id: 'job', planned_tasks }, view: { positions } });
}

describe.each(testDatabases())('the tasks near a linked task on $name', (database) => {
  const db = useTestDatabase(database);

  it('are the revision’s tasks saved around it, nearest first, the task itself first, bounded', async () => {
    const { id } = await createPlan(db(), gridPlan(), 'tester');
    const whole = await getPlan(db(), id);
    const center = `t${20 * ROWS + 15}`;
    const near = (await getTasksNear(db(), id, 1, center))!;
    expect(near.taskId).toBe(center);
    expect(near.tasks[0]!.task_id).toBe(center);
    const within = whole.plan.planned_tasks.filter((task) => {
      const at = whole.view.positions[task.task_id];
      const c = whole.view.positions[center]!;
      return at && Math.abs(at.x - c.x) <= NEAR_AREA.halfWidth && Math.abs(at.y - c.y) <= NEAR_AREA.halfHeight;
    });
    expect(within.length).toBeGreaterThan(NEAR_AREA.limit);
    expect(near.tasks).toHaveLength(NEAR_AREA.limit);
    const c = whole.view.positions[center]!;
    const distances = near.tasks.map((task) => (near.positions[task.task_id]!.x - c.x) ** 2 + (near.positions[task.task_id]!.y - c.y) ** 2);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    // Each as the whole revision reads it, at its saved position.
    const byId = new Map(whole.plan.planned_tasks.map((task) => [task.task_id, task]));
    for (const task of near.tasks) {
      expect(task).toEqual(byId.get(task.task_id));
      expect(near.positions[task.task_id]).toEqual(whole.view.positions[task.task_id]);
    }
    expect(Object.keys(near.positions)).toHaveLength(near.tasks.length);
  });

  it('put the linked task first even where more tasks than are drawn share its spot', async () => {
    const request = gridPlan();
    const positions = Object.fromEntries(request.plan.planned_tasks.map((task) => [task.task_id, { x: 0, y: 0 }]));
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ ...request, view: { positions } }), 'tester');
    const near = (await getTasksNear(db(), id, 1, `t${COLUMNS * ROWS - 1}`))!;
    expect(near.tasks).toHaveLength(NEAR_AREA.limit);
    expect(near.tasks[0]!.task_id).toBe(`t${COLUMNS * ROWS - 1}`);
  });

  it('are none for a task the revision lacks or has not placed', async () => {
    const { id } = await createPlan(db(), gridPlan(), 'tester');
    expect(await getTasksNear(db(), id, 1, 'no-such-task')).toBeUndefined();
    expect(await getTasksNear(db(), id, 1, 't7')).toBeUndefined();
    expect(await getTasksNear(db(), id, 2, 't0')).toBeUndefined();
  });
});
