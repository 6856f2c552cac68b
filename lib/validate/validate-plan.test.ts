import { describe, expect, it } from 'vitest';
import { TaskData, type PlannerTaskInput } from '@/lib/plan';
import { validatePlan } from '@/lib/validate';

const plan = (tasks: PlannerTaskInput[]) => TaskData.parse({ planned_tasks: tasks });
const codes = (tasks: PlannerTaskInput[]) => validatePlan(plan(tasks)).issues.map((i) => i.code);

describe('validatePlan', () => {
  it('passes a well-formed DAG with no issues', () => {
    const result = validatePlan(
      plan([
        { task_id: 'a', execution_type: 'tool', tool_id: 'http_get' },
        { task_id: 'b', execution_type: 'llm', dependencies: ['a'] },
      ]),
    );
    expect(result).toEqual({ valid: true, issues: [] });
  });

  it('reports a cycle with its path and the tasks in it', () => {
    const result = validatePlan(
      plan([
        { task_id: 'fetch', execution_type: 'tool', tool_id: 'http_get', dependencies: ['summarise'] },
        { task_id: 'summarise', execution_type: 'llm', dependencies: ['fetch'] },
      ]),
    );
    expect(result.valid).toBe(false);
    expect(result.issues[0].code).toBe('cycle');
    expect(result.issues[0].message).toMatch(/^Cycle: (fetch → summarise → fetch|summarise → fetch → summarise)/);
    expect(result.issues[0].task_ids.sort()).toEqual(['fetch', 'summarise']);
  });

  it('reports missing, duplicate and self dependencies as errors', () => {
    expect(codes([{ task_id: 'a', execution_type: 'tool', tool_id: 'http_get', dependencies: ['ghost'] }])).toEqual(['missing_dependency']);
    expect(codes([{ task_id: 'a', execution_type: 'tool', tool_id: 'http_get', dependencies: ['a'] }])).toEqual(['self_dependency']);
    expect(
      codes([
        { task_id: 'a', execution_type: 'tool', tool_id: 'http_get' },
        { task_id: 'a', execution_type: 'tool', tool_id: 'http_get' },
      ]),
    ).toContain('duplicate_task_id');
  });

  it('reports missing and unknown execution types', () => {
    const result = validatePlan(plan([{ task_id: 'a' }, { task_id: 'b', execution_type: 'teleport', dependencies: ['a'] }]));
    expect(result.issues.map((i) => [i.code, i.task_ids])).toEqual([
      ['missing_execution_type', ['a']],
      ['unknown_execution_type', ['b']],
    ]);
  });

  it('warns about redundant dependencies and isolated tasks without failing the plan', () => {
    const result = validatePlan(
      plan([
        { task_id: 'a', execution_type: 'tool', tool_id: 'http_get' },
        { task_id: 'b', execution_type: 'tool', tool_id: 'http_get', dependencies: ['a'] },
        { task_id: 'c', execution_type: 'tool', tool_id: 'http_get', dependencies: ['a', 'b'] },
        { task_id: 'lonely', execution_type: 'tool', tool_id: 'http_get' },
      ]),
    );
    expect(result.valid).toBe(true);
    expect(result.issues.map((i) => [i.severity, i.code, i.task_ids])).toEqual([
      ['warning', 'redundant_dependency', ['c', 'a']],
      ['warning', 'isolated_task', ['lonely']],
    ]);
    expect(result.issues[0].message).toBe('Task "c" depends on "a" directly and through "b"; the direct dependency is redundant');
  });

  it('warns about an empty plan', () => {
    expect(validatePlan(plan([]))).toMatchObject({ valid: true, issues: [{ code: 'empty_plan' }] });
  });
});
