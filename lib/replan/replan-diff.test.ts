import { describe, expect, it } from 'vitest';
import { PlanDocument, PlannerTask } from '@/lib/plan';
import { replanDiff } from './replan-diff';

const doc = PlanDocument.parse({
  plan: {
    planned_tasks: [
      { task_id: 'a', execution_type: 'tool', tool_id: 'shipments_list' },
      { task_id: 'b', description: 'Filter', execution_type: 'llm', function_id: 'gpt-4', dependencies: ['a'] },
      { task_id: 'c', execution_type: 'agent', dependencies: ['b'] },
    ],
  },
});

describe('replanDiff', () => {
  it('shows each replacement applied alone: the fields that change, and the edges', () => {
    const [diff] = replanDiff(doc, [
      {
        replaces: 'b',
        tasks: [
          PlannerTask.parse({ task_id: 'b1', description: 'Filter strictly', execution_type: 'llm', function_id: 'gpt-4' }),
          PlannerTask.parse({ task_id: 'b2', description: 'Check', execution_type: 'agent', agent_id: 'reviewer', dependencies: ['b1'] }),
        ],
      },
    ]);
    expect(diff.error).toBeNull();
    expect(diff.before.task_id).toBe('b');
    expect(diff.after.map((t) => [t.task_id, t.main_task_id, t.dependencies])).toEqual([
      ['b1', 'b', ['a']],
      ['b2', 'b', ['b1']],
    ]);
    expect(diff.fields).toEqual([{ field: 'description', before: 'Filter', after: 'Filter strictly' }]);
    expect(diff.edges_added).toEqual([
      { from: 'a', to: 'b1' },
      { from: 'b1', to: 'b2' },
      { from: 'b2', to: 'c' },
    ]);
    expect(diff.edges_removed).toEqual([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
    ]);
  });

  it('says why a replacement cannot be applied instead of failing the whole diff', () => {
    const diffs = replanDiff(doc, [
      { replaces: 'b', tasks: [PlannerTask.parse({ task_id: 'b1', dependencies: ['c'] })] },
      { replaces: 'a', tasks: [PlannerTask.parse({ task_id: 'a1', execution_type: 'tool', tool_id: 'facilities_list' })] },
    ]);
    expect(diffs[0]).toMatchObject({ replaces: 'b', error: 'The replacement for "b" would create a cycle: b1 → c → b1', edges_added: [] });
    expect(diffs[1]).toMatchObject({ replaces: 'a', error: null, fields: [{ field: 'tool_id', before: 'shipments_list', after: 'facilities_list' }] });
  });
});
