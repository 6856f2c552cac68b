import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { exportPlan, importPlanText } from './plan-interop';
import { createPlan, getPlan } from './plan-service';

describe.each(testDatabases())('plan import and export on $name', (database) => {
  const db = useTestDatabase(database);

  it('imports a detected format as revision 1 and exports it back', async () => {
    const content = JSON.stringify([
      { id: '1', subject: 'Fetch requirements', blocks: ['2'], blocked_by: [] },
      { id: '2', subject: 'Draft a plan', blocks: [], blocked_by: ['1'] },
    ]);
    const imported = await importPlanText(db(), { content }, 'tester');
    expect(imported).toMatchObject({ revision: 1, format: 'agentscope' });
    const plan = await getPlan(db(), imported.id);
    expect(plan.plan.planned_tasks.map((t) => [t.task_id, t.dependencies])).toEqual([
      ['1', []],
      ['2', ['1']],
    ]);
    const exported = await exportPlan(db(), imported.id, 'agentscope');
    expect(exported.mediaType).toBe('application/json');
    expect(JSON.parse(exported.text)).toHaveLength(2);
  });

  it('refuses to export a cyclic draft as a step list with a 422 that says why', async () => {
    const cyclic = CreatePlanRequest.parse({
      title: 'Cyclic draft',
      plan: {
        planned_tasks: [
          { task_id: 'a', execution_type: 'tool', tool_id: 'x', dependencies: ['b'] },
          { task_id: 'b', execution_type: 'tool', tool_id: 'y', dependencies: ['a'] },
        ],
      },
    });
    const { id } = await createPlan(db(), cyclic, 'tester');
    const error = await exportPlan(db(), id, 'planner-agent').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).message).toMatch(/cannot be exported as planner-agent: .*cycle/);
  });

  it('answers an oversized import with 413 and a broken one with 400', async () => {
    const huge = await importPlanText(db(), { content: 'x'.repeat(11 * 1024 * 1024) }, 'tester').catch((e: unknown) => e);
    expect((huge as AppError).status).toBe(413);
    const broken = await importPlanText(db(), { content: '<plan><step id="1"><dependencies>9</dependencies></step></plan>' }, 'tester').catch((e: unknown) => e);
    expect((broken as AppError).status).toBe(400);
    expect((broken as AppError).message).toMatch(/^Could not import as cortex-xml: line 1: step 1/);
  });
});
