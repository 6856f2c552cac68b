import { describe, expect, it } from 'vitest';
import { TaskData, type PlannerTaskInput } from '@/lib/plan';
import { EDITOR_ISSUE_CAPS, ISSUE_CAPS, capIssues, validatePlan } from '@/lib/validate';
import { Registry } from '@/lib/registry';

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

describe('errors past those listed', () => {
  it('are counted as before without wording the parameter checks nobody reads', () => {
    const registry = Registry.parse({
      tools: [{ id: 'pick', description: 'Pick', input_schema: { type: 'object', properties: { choice: { anyOf: [0, 1].map((i) => ({ type: 'object', properties: { [`k${i}`]: { type: 'integer' } }, required: [`k${i}`] })) }, n: { type: 'integer' } } } }],
    });
    const plan = {
      planned_tasks: Array.from({ length: 30 }, (_, i) => ({ task_id: `t${i}`, description: `T${i}`, execution_type: 'tool' as const, tool_id: 'pick', arguments: i % 4 ? { choice: { k1: i }, n: i } : { choice: { nope: i }, n: 'x' } })),
    };
    const parsed = TaskData.parse(plan);
    const caps = { ...ISSUE_CAPS, maxIssues: 6 };
    const everything = validatePlan(parsed, registry, [], EDITOR_ISSUE_CAPS);
    expect(everything.issues.length).toBeGreaterThan(6);
    expect(validatePlan(parsed, registry, [], caps)).toEqual({ valid: everything.valid, issues: capIssues(everything.issues, caps) });
  });
});
