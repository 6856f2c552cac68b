import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS, PlannerTask, TaskData } from '@/lib/plan';

describe('PlannerTask', () => {
  it('fills every field with seed 000 defaults', () => {
    const task = PlannerTask.parse({ task_id: 't1' });
    expect(task).toMatchObject({
      task_id: 't1',
      main_task_id: '',
      description: '',
      execution_type: '',
      dependencies: [],
      tool_id: null,
      function_id: null,
      agent_id: null,
      parameters: {},
      arguments: {},
      instructions: null,
      convertor_code: null,
      estimate_data: null,
      mark_replan: false,
      status: 'pending',
      output: {},
    });
    expect(Date.parse(task.creation_time)).not.toBeNaN();
    expect(PlannerTask.parse({}).task_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('normalises l2_task by parameters.sub_type and other spellings', () => {
    const subType = (sub_type: string) =>
      PlannerTask.parse({ task_id: 'x', execution_type: 'l2_task', parameters: { sub_type } }).execution_type;
    expect(subType('tools')).toBe('tool');
    expect(subType('agent')).toBe('agent');
    expect(subType('llm')).toBe('llm');
    expect(subType('dsl')).toBe('dsl');
    expect(PlannerTask.parse({ execution_type: 'tool_call' }).execution_type).toBe('tool');
    expect(PlannerTask.parse({ execution_type: 'teleport' }).execution_type).toBe('teleport');
  });

  it('accepts estimate_data with latency, cost and tokens only', () => {
    const ok = PlannerTask.parse({ estimate_data: { latency_ms: 1200, cost_usd: 0.01, tokens: 300 } });
    expect(ok.estimate_data).toEqual({ latency_ms: 1200, cost_usd: 0.01, tokens: 300 });
    expect(PlannerTask.safeParse({ estimate_data: { latency_ms: -1 } }).success).toBe(false);
    expect(PlannerTask.safeParse({ estimate_data: { minutes: 3 } }).success).toBe(false);
  });

  it('rejects unknown fields so a typo is not silently dropped', () => {
    const result = PlannerTask.safeParse({ task_id: 'x', dependecies: ['y'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toContain('dependecies');
  });

  it('refuses oversized descriptions and convertor code with the size in the message', () => {
    const big = PlannerTask.safeParse({ description: 'é'.repeat(PLAN_LIMITS.maxDescriptionBytes) });
    expect(big.error?.issues[0].message).toBe('description is 20.0 kB; the limit is 10.0 kB');
    const code = PlannerTask.safeParse({ convertor_code: 'x'.repeat(PLAN_LIMITS.maxConvertorCodeBytes + 1) });
    expect(code.error?.issues[0].message).toMatch(/^convertor_code is 64\.0 kB; the limit is 64\.0 kB$/);
    expect(PlannerTask.safeParse({ description: 'a'.repeat(PLAN_LIMITS.maxDescriptionBytes) }).success).toBe(true);
  });
});

describe('TaskData', () => {
  it('holds at most 20,000 tasks', () => {
    const tasks = Array.from({ length: PLAN_LIMITS.maxTasks + 1 }, (_, i) => ({ task_id: `t${i}` }));
    const result = TaskData.safeParse({ planned_tasks: tasks });
    expect(result.error?.issues[0].message).toBe('A plan may hold at most 20,000 tasks');
  });
});
