import { describe, expect, it } from 'vitest';
import type { PlannerTask } from '@/lib/plan';
import { referencedTasks, resolveFixedInput, resolveTaskInput } from './resolve-input';

// What a task of a run is sent: its input with step templates and †state paths read from
// what upstream tasks recorded.

const task = (fields: Partial<PlannerTask>): PlannerTask => ({ task_id: 't', dependencies: [], parameters: {}, arguments: {}, ...fields }) as PlannerTask;

describe('resolving a task input from recorded outputs', () => {
  const recorded = {
    taskIds: ['a', 'b', 'c'],
    outputs: new Map<string, unknown>([
      ['a', { rows: [{ id: 1 }, { id: 2 }] }],
      ['b', { receipt: 'R-9' }],
    ]),
    outputPaths: new Map([['b', '†state.order || †state.error']]),
  };

  it('reads whole templates as values, embedded ones as text, and state from its writer', () => {
    const c = task({ task_id: 'c', arguments: { ids: '${step[0].rows.*.id}', note: 'first ${step[0].rows[0].id}', order: '†state.order.receipt', other: '†state.unwritten' } });
    expect(resolveTaskInput(c, recorded)).toEqual({ input: { ids: [1, 2], note: 'first 1', order: 'R-9', other: '†state.unwritten' }, unresolved: [] });
  });

  it('names a template whose step recorded nothing, or no such field', () => {
    const c = task({ task_id: 'c', arguments: { x: '${step[2].y}', z: '${step[0].missing}' } });
    const { unresolved } = resolveTaskInput(c, recorded);
    expect(unresolved).toEqual(['${step[2].y}: step 2 has no recorded output', '${step[0].missing}: the output of a has nothing at .missing']);
  });

  it('loads only the tasks the input can read: dependencies, named steps and state writers', () => {
    const c = task({ task_id: 'c', dependencies: ['b'], arguments: { x: '${step[0].rows}' } });
    expect(referencedTasks(c, recorded.taskIds, recorded.outputPaths).sort()).toEqual(['a', 'b']);
  });

  it('tells an input that reads no recorded output from one that does', () => {
    const fixed = task({ task_id: 'c', dependencies: ['a'], arguments: { city: 'Oslo', order: '†state.order' } });
    // No task writes state: the path is left as written, whatever the run recorded.
    expect(resolveFixedInput(fixed, recorded.taskIds, new Map())).toEqual({ input: { city: 'Oslo', order: '†state.order' }, unresolved: [] });
    // Once a task writes state, the same input reads it.
    expect(resolveFixedInput(fixed, recorded.taskIds, recorded.outputPaths)).toBeNull();
    expect(resolveFixedInput(task({ task_id: 'c', arguments: { x: 'first ${step[0].rows[0].id}' } }), recorded.taskIds, new Map())).toBeNull();
  });
});
