import { describe, expect, it } from 'vitest';
import { PlanDocument, addDependency, addTask, diffPlans, isEmptyDiff, removeTasks, setPositions, updateTask } from '@/lib/plan';

const base = PlanDocument.parse({
  plan: {
    planned_tasks: [
      { task_id: 'a', execution_type: 'tool', creation_time: '2026-01-01T00:00:00Z', last_update_time: '2026-01-01T00:00:00Z' },
      { task_id: 'b', execution_type: 'llm', dependencies: ['a'], creation_time: '2026-01-01T00:00:00Z', last_update_time: '2026-01-01T00:00:00Z' },
    ],
  },
});

describe('diffPlans', () => {
  it('lists added, removed and changed tasks and dependency changes', () => {
    let next = addTask(base, { task_id: 'c', execution_type: 'agent' });
    next = addDependency(next, 'b', 'c');
    next = updateTask(next, 'b', { description: 'Summarise' });
    next = removeTasks(next, ['a']);
    const diff = diffPlans(base, next);
    expect(diff.added.map((t) => t.task_id)).toEqual(['c']);
    expect(diff.removed.map((t) => t.task_id)).toEqual(['a']);
    expect(diff.changed).toEqual([{ task_id: 'b', fields: [{ field: 'description', before: '', after: 'Summarise' }] }]);
    expect(diff.dependenciesAdded).toEqual([{ from: 'b', to: 'c' }]);
    expect(diff.dependenciesRemoved).toEqual([{ from: 'a', to: 'b' }]);
  });

  it('reports plan-level fields, which the hash covers too', () => {
    const diff = diffPlans(base, { ...base, plan: { ...base.plan, status: 'in_progress' } });
    expect(diff.planFieldsChanged).toEqual(['status']);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('is empty for a layout-only change', () => {
    expect(isEmptyDiff(diffPlans(base, setPositions(base, { a: { x: 5, y: 5 } })))).toBe(true);
  });
});
