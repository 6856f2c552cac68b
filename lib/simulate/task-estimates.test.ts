import { describe, expect, it } from 'vitest';
import { PlannerTask } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { TYPE_CODES, estimateTasks } from './task-estimates';

const registry = Registry.parse(DEMO_REGISTRY);
const tasks = (...input: Array<Parameters<typeof PlannerTask.parse>[0]>) => input.map((t) => PlannerTask.parse(t));

describe('estimateTasks', () => {
  it('reads latency_ms, cost_usd and tokens from free-form estimate_data and lists what it did not use', () => {
    const result = estimateTasks(
      tasks(
        { task_id: 'a', execution_type: 'agent', agent_id: 'analyst', estimate_data: { latency_ms: 1200, cost_usd: 0.5, note: 'from last run' } },
        { task_id: 'b', execution_type: 'agent', agent_id: 'analyst', estimate_data: 'about a minute' },
        { task_id: 'c', execution_type: 'agent', agent_id: 'analyst', estimate_data: { latency_ms: -3 } },
      ),
      registry,
    );
    expect([...result.durations]).toEqual([1200, 5000, 5000]);
    expect(result.costs[0]).toBe(0.5);
    const unread = result.assumptions.find((a) => a.startsWith('estimate_data not used'));
    expect(unread).toContain('"a" (note)');
    expect(unread).toContain('"b" (a string value)');
    expect(unread).toContain('"c" (latency_ms (not a non-negative number))');
    expect(result.assumptions).toContain('2 agent tasks without a latency estimate: 5,000 ms each (default for agent): "b", "c"');
    // a has its own cost; b and c have none, and the agent has no registry default.
    expect(result.costUnknown).toEqual([1, 2]);
    expect(result.assumptions).toContain(
      '2 tasks without a cost estimate (no cost_usd of their own, no registry default, no model price), so any total cost that includes them is unknown: "b", "c"',
    );
  });

  it('counts the tasks past the first few instead of listing them all', () => {
    const many = tasks(...Array.from({ length: 12 }, (_, i) => ({ task_id: `t${i}`, execution_type: 'llm', estimate_data: { eta: i } })));
    const unread = estimateTasks(many, registry).assumptions.find((a) => a.startsWith('estimate_data not used'))!;
    expect(unread).toMatch(/and 7 more tasks$/);
    expect(estimateTasks(many, registry).assumptions).toContain('12 llm tasks without a latency estimate: 3,000 ms each (default for llm): "t0", "t1", "t2", "t3", "t4" and 7 more');
  });

  it('lists nothing when every task has its own estimates', () => {
    const own = estimateTasks(tasks({ task_id: 'a', execution_type: 'agent', estimate_data: { latency_ms: 10, cost_usd: 0 } }), registry);
    expect([own.assumptions, own.findings, own.costUnknown]).toEqual([[], [], []]);
  });

  it('schedules seed 000 spellings as their kind (l2_task by sub_type, tool_call)', () => {
    const result = estimateTasks(
      tasks(
        { task_id: 'l', execution_type: 'l2_task', parameters: { sub_type: 'llm' } },
        { task_id: 't', execution_type: 'tool_call', tool_id: 'unknown_tool' },
        { task_id: 'x', execution_type: 'l2_task' },
      ),
      registry,
    );
    expect([...result.types].map((code) => TYPE_CODES[code])).toEqual(['llm', 'tool', 'other']);
    expect([...result.durations]).toEqual([3000, 1000, 1000]);
  });
});
