import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS, PlannerTask, TaskData, executionKind, pythonUtcIso, readEstimate } from '@/lib/plan';

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

  it('keeps execution_type as given; executionKind derives the kind from l2_task and other spellings', () => {
    const l2 = (sub_type: string) => PlannerTask.parse({ task_id: 'x', execution_type: 'l2_task', parameters: { sub_type } });
    expect(l2('tools').execution_type).toBe('l2_task');
    expect(l2('tools').parameters).toEqual({ sub_type: 'tools' });
    expect(executionKind(l2('tools'))).toBe('tool');
    expect(executionKind(l2('agent'))).toBe('agent');
    expect(executionKind(l2('llm'))).toBe('llm');
    expect(executionKind(l2('dsl'))).toBe('dsl');
    expect(executionKind(l2('teleport'))).toBe('l2_task');
    expect(PlannerTask.parse({ execution_type: 'tool_call' }).execution_type).toBe('tool_call');
    expect(executionKind(PlannerTask.parse({ execution_type: 'tool_call' }))).toBe('tool');
    expect(executionKind(PlannerTask.parse({ execution_type: 'teleport' }))).toBe('teleport');
    expect(PlannerTask.parse({ execution_type: null }).execution_type).toBeNull();
    expect(executionKind(PlannerTask.parse({ execution_type: null }))).toBe('');
  });

  it('keeps any JSON value as estimate_data (seed 000: Any), depth-limited', () => {
    for (const value of [{ latency_ms: 1200, cost_usd: 0.01, tokens: 300 }, { latency_ms: -1 }, { minutes: 3, nested: { a: [1, 'x'] } }, 'about a minute', 42, [1, 2], true]) {
      expect(PlannerTask.parse({ estimate_data: value }).estimate_data).toEqual(value);
    }
    let deep: unknown = 1;
    for (let i = 0; i < PLAN_LIMITS.maxJsonDepth + 1; i++) deep = [deep];
    expect(PlannerTask.safeParse({ estimate_data: deep }).success).toBe(false);
  });

  it('reads the estimate figures it knows and lists the rest', () => {
    expect(readEstimate({ latency_ms: 1200, cost_usd: 0.01, tokens: 300 })).toEqual({ latency_ms: 1200, cost_usd: 0.01, tokens: 300, unread: [] });
    expect(readEstimate({ latency_ms: -1, minutes: 3 })).toEqual({ unread: ['latency_ms (not a non-negative number)', 'minutes'] });
    expect(readEstimate('about a minute')).toEqual({ unread: ['a string value'] });
    expect(readEstimate(null)).toEqual({ unread: [] });
  });

  it('fills timestamps as Python writes datetime.utcnow().isoformat(): naive UTC, microseconds', () => {
    const task = PlannerTask.parse({});
    expect(task.creation_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/);
    expect(TaskData.parse({}).update_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/);
    expect(pythonUtcIso(new Date('2026-01-02T03:04:05.123Z'))).toBe('2026-01-02T03:04:05.123000');
    expect(pythonUtcIso(new Date('2026-01-02T03:04:05.007Z'))).toBe('2026-01-02T03:04:05.007000');
    // Python leaves the fraction out when it is zero.
    expect(pythonUtcIso(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05');
  });

  it('keeps the timestamps a client sends byte for byte', () => {
    for (const at of ['2026-01-02T03:04:05.123456', '2026-01-02T03:04:05', '2026-01-02T03:04:05.123Z', '2026-01-02T03:04:05+02:00']) {
      const task = PlannerTask.parse({ creation_time: at, last_update_time: at });
      expect([task.creation_time, task.last_update_time]).toEqual([at, at]);
      expect(TaskData.parse({ creation_time: at, update_time: at }).creation_time).toBe(at);
    }
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
