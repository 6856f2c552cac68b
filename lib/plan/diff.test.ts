import { describe, expect, it } from 'vitest';
import { PlanDocument, addDependency, addTask, diffPlans, diffSubgraphs, isEmptyDiff, removeTasks, setPositions, taskMarks, updateTask, valueChanges } from '@/lib/plan';

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

  it('pairs a new task whose main_task_id names a removed task with it, field by field', () => {
    const replaced = PlanDocument.parse({
      plan: {
        planned_tasks: [
          base.plan.planned_tasks[0],
          { task_id: 'b2', main_task_id: 'b', execution_type: 'llm', dependencies: ['a'], instructions: 'Per facility', creation_time: '2026-02-01T00:00:00Z', last_update_time: '2026-02-01T00:00:00Z' },
          { task_id: 'c', main_task_id: 'a', execution_type: 'tool' },
        ],
      },
    });
    const diff = diffPlans(base, replaced);
    expect(diff.added.map((t) => t.task_id)).toEqual(['b2', 'c']);
    expect(diff.removed.map((t) => t.task_id)).toEqual(['b']);
    // `c` names `a`, which is still there: an addition, not a replacement.
    expect(diff.replacements).toHaveLength(1);
    expect(diff.replacements[0].replaces.task_id).toBe('b');
    expect(diff.replacements[0].tasks.map((r) => r.task.task_id)).toEqual(['b2']);
    expect(diff.replacements[0].tasks[0].fields).toEqual([{ field: 'instructions', before: null, after: 'Per facility' }]);
  });

  it('lists subgraph changes by group and member', () => {
    const before = [
      { subgraph_id: 'g1', task_ids: ['a', 'b'], depends_on: [] },
      { subgraph_id: 'g2', task_ids: ['c'], depends_on: ['g1'] },
      { subgraph_id: 'gone', task_ids: ['d'], depends_on: [] },
    ];
    const after = [
      { subgraph_id: 'g1', task_ids: ['a'], depends_on: [] },
      { subgraph_id: 'g2', task_ids: ['c', 'b', 'e'], depends_on: [] },
      { subgraph_id: 'new', task_ids: ['d'], depends_on: ['g2'] },
    ];
    const diff = diffSubgraphs(before, after);
    expect(diff.added.map((s) => s.subgraph_id)).toEqual(['new']);
    expect(diff.removed.map((s) => s.subgraph_id)).toEqual(['gone']);
    expect(diff.changed).toEqual([
      { subgraph_id: 'g1', tasksAdded: [], tasksRemoved: ['b'], dependsOnAdded: [], dependsOnRemoved: [] },
      { subgraph_id: 'g2', tasksAdded: ['b', 'e'], tasksRemoved: [], dependsOnAdded: [], dependsOnRemoved: ['g1'] },
    ]);
    expect(diff.moved).toEqual([
      { task_id: 'b', from: 'g1', to: 'g2' },
      { task_id: 'd', from: 'gone', to: 'new' },
    ]);
    const doc = { ...base, subgraphs: before };
    expect(diffPlans(doc, { ...base, subgraphs: after }).subgraphs).toEqual(diff);
    expect(diffPlans(doc, doc).subgraphs).toEqual({ added: [], removed: [], changed: [], moved: [] });
  });

  it('names the paths inside a JSON value that differ', () => {
    expect(
      valueChanges(
        { stage2: { uid: 't1', input_data: { days: 7, region: 'EU' } }, keep: [1, 2] },
        { stage2: { uid: 't1', input_data: { days: 14 } }, keep: [1, 3], extra: true },
      ),
    ).toEqual([
      { path: 'stage2.input_data.days', before: 7, after: 14 },
      { path: 'stage2.input_data.region', before: 'EU', after: undefined },
      { path: 'keep', before: [1, 2], after: [1, 3] },
      { path: 'extra', before: undefined, after: true },
    ]);
    expect(valueChanges('old text', 'new text')).toEqual([{ path: '', before: 'old text', after: 'new text' }]);
    expect(valueChanges(null, { a: 1 })).toEqual([{ path: '', before: null, after: { a: 1 } }]);
    expect(valueChanges({ a: 1, b: 2, c: 3 }, {}, 2)).toHaveLength(2);
  });
});

describe('taskMarks', () => {
  it('marks added, replacing and changed tasks of the newer revision, and leaves the rest unmarked', () => {
    const three = addTask(base, { task_id: 'c', execution_type: 'agent' });
    const next = PlanDocument.parse({
      plan: {
        planned_tasks: [
          { ...three.plan.planned_tasks[0], description: 'Fetch' },
          { task_id: 'b2', main_task_id: 'b', execution_type: 'llm', dependencies: ['a'] },
          three.plan.planned_tasks[2],
          { task_id: 'd', execution_type: 'tool', dependencies: ['a'] },
        ],
      },
    });
    const marks = taskMarks(diffPlans(three, next));
    expect(marks.get('a')).toEqual({ kind: 'changed', fields: ['description'] });
    expect(marks.get('b2')).toEqual({ kind: 'replaces', replaces: 'b' });
    expect(marks.get('d')).toEqual({ kind: 'added' });
    expect(marks.has('c')).toBe(false);
    // Removed tasks are not in the newer revision, so they carry no mark.
    expect(marks.has('b')).toBe(false);
  });

  it('marks a task whose only change is a dependency, and adds dependencies to other changes', () => {
    // One added task, so both sides carry the same creation time.
    const three = addTask(base, { task_id: 'c', execution_type: 'agent' });
    let next = addDependency(three, 'a', 'c');
    expect(taskMarks(diffPlans(three, next)).get('c')).toEqual({ kind: 'changed', fields: ['dependencies'] });
    next = updateTask(next, 'c', { description: 'Route' });
    expect(taskMarks(diffPlans(three, next)).get('c')).toEqual({ kind: 'changed', fields: ['description', 'dependencies'] });
    expect(taskMarks(diffPlans(three, next)).has('a')).toBe(false);
  });

  it('marks nothing when only the layout changed', () => {
    expect(taskMarks(diffPlans(base, setPositions(base, { a: { x: 5, y: 5 } }))).size).toBe(0);
  });
});
