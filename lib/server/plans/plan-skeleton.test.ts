import { describe, expect, it } from 'vitest';
import type { TaskDataInput } from '@/lib/plan';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { findOverviewTasks } from './overview-tasks';
import { createPlan, getPlan, getPlanSkeleton } from './plan-service';

// A big plan's page starts from its skeleton and its overview tasks, neither of which reads
// the tasks' bodies; both must say exactly what the whole revision says.

const plan: TaskDataInput = {
  task_id: 'job-1',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'http_get', instructions: 'A long text the overview never needs' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'l2_task', parameters: { sub_type: 'llm', prompt: 'x'.repeat(1000) }, dependencies: ['fetch'] },
    { task_id: 'report', description: 'Report', execution_type: 'agent', agent_id: 'writer', dependencies: ['summarise', 'fetch'] },
  ],
};

describe.each(testDatabases())('a plan read for its page on $name', (database) => {
  const db = useTestDatabase(database);

  it('reads the skeleton (no tasks) and the task ids in plan order, as the whole revision has them', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Skeleton', plan }), 'tester');
    const whole = await getPlan(db(), id);
    const { plan: skeleton, taskIds } = await getPlanSkeleton(db(), id);
    expect(taskIds).toEqual(['fetch', 'summarise', 'report']);
    expect(skeleton).toEqual({ ...whole, plan: { ...whole.plan, planned_tasks: [] } });
    const missing = await getPlanSkeleton(db(), id, 7).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(AppError);
    expect((missing as AppError).status).toBe(404);
  });

  it('projects each task to its id, routing and dependencies, in plan order', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Overview', plan }), 'tester');
    expect(await findOverviewTasks(db(), id, 1)).toEqual([
      { task_id: 'fetch', execution_type: 'tool', tool_id: 'http_get', parameters: {}, dependencies: [] },
      { task_id: 'summarise', execution_type: 'l2_task', parameters: { sub_type: 'llm' }, dependencies: ['fetch'] },
      { task_id: 'report', execution_type: 'agent', agent_id: 'writer', parameters: {}, dependencies: ['summarise', 'fetch'] },
    ]);
    expect(await findOverviewTasks(db(), id, 2)).toBeUndefined();
  });
});
