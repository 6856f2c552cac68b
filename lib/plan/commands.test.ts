import { describe, expect, it } from 'vitest';
import {
  PlanDocument,
  addDependency,
  addTask,
  moveDependency,
  removeDependency,
  removeTasks,
  updateTask,
} from '@/lib/plan';

function freeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}

const doc = freeze(
  PlanDocument.parse({
    plan: {
      planned_tasks: [
        { task_id: 'a', execution_type: 'tool' },
        { task_id: 'b', execution_type: 'llm', dependencies: ['a'] },
        { task_id: 'c', execution_type: 'agent', dependencies: ['a', 'b'] },
      ],
    },
    subgraphs: [{ subgraph_id: 's1', task_ids: ['a', 'b', 'c'] }],
    view: { positions: { a: { x: 0, y: 0 }, b: { x: 200, y: 0 } } },
  }),
);

const deps = (d: PlanDocument) => Object.fromEntries(d.plan.planned_tasks.map((t) => [t.task_id, t.dependencies]));

describe('plan edit commands', () => {
  it('never mutate their input (the input is deep-frozen) and share untouched tasks', () => {
    const next = updateTask(doc, 'c', { description: 'Review' });
    expect(next.plan.planned_tasks[2].description).toBe('Review');
    expect(doc.plan.planned_tasks[2].description).toBe('');
    expect(next.plan.planned_tasks[0]).toBe(doc.plan.planned_tasks[0]);
  });

  it('add a task with defaults and a position, and refuse a duplicate id', () => {
    const next = addTask(doc, { task_id: 'd', execution_type: 'dsl' }, { x: 5, y: 6 });
    expect(next.plan.planned_tasks.at(-1)).toMatchObject({ task_id: 'd', status: 'pending', dependencies: [] });
    expect(next.view.positions.d).toEqual({ x: 5, y: 6 });
    expect(() => addTask(doc, { task_id: 'a' })).toThrow('addTask: task "a" already exists');
  });

  it('remove tasks with every edge, position and group membership that names them', () => {
    const next = removeTasks(doc, ['b']);
    expect(deps(next)).toEqual({ a: [], c: ['a'] });
    expect(next.view.positions.b).toBeUndefined();
    expect(next.subgraphs[0].task_ids).toEqual(['a', 'c']);
    expect(() => removeTasks(doc, ['zz'])).toThrow('removeTasks: task "zz" does not exist');
  });

  it('add, remove and move dependencies with clear refusals', () => {
    expect(deps(addDependency(removeDependency(doc, 'a', 'c'), 'a', 'c')).c).toEqual(['b', 'a']);
    expect(() => addDependency(doc, 'a', 'b')).toThrow('addDependency: task "b" already depends on "a"');
    expect(() => addDependency(doc, 'a', 'a')).toThrow('addDependency: task "a" cannot depend on itself');
    expect(() => addDependency(doc, 'x', 'a')).toThrow('addDependency: task "x" does not exist');
    expect(() => removeDependency(doc, 'c', 'a')).toThrow('removeDependency: task "a" does not depend on "c"');
    expect(deps(moveDependency(doc, { from: 'a', to: 'b' }, { from: 'c', to: 'b' })).b).toEqual(['c']);
  });

  it('validate updates against the schema and keep the id fixed', () => {
    expect(() => updateTask(doc, 'a', { mark_replan: 'yes' as never })).toThrow(/^updateTask: .*mark_replan/);
    expect(() => updateTask(doc, 'a', { task_id: 'z' } as never)).toThrow('updateTask: task_id cannot be changed');
    // Stored as given: seed 000's spellings are not rewritten (executionKind reads them).
    expect(updateTask(doc, 'a', { execution_type: 'tools' }).plan.planned_tasks[0].execution_type).toBe('tools');
  });
});
