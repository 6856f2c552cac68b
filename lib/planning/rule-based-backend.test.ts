import { describe, expect, it } from 'vitest';
import { PlannerTask } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { Stage1Input } from './planning-types';
import { ruleBasedBackend } from './rule-based-backend';
import { stage2Problems } from './stage2-check';

const registry = Registry.parse(DEMO_REGISTRY);

describe('rule-based planning backend', () => {
  it('plans a shipment query with the rules, and an open-ended goal as one honest LLM task', async () => {
    const query = await ruleBasedBackend.stage1(Stage1Input.parse({ task_description: 'Get facilities in Berlin', today: '2025-10-12' }), registry, () => {});
    expect(query.tasks.map((t) => [t.tool_id, t.arguments])).toEqual([['facilities_list', { location: 'Berlin' }]]);
    const open = await ruleBasedBackend.stage1(Stage1Input.parse({ task_description: 'Write a poem about logistics' }), registry, () => {});
    expect(open.tasks.map((t) => [t.execution_type, t.function_id, t.description])).toEqual([['llm', 'gpt-4', 'Write a poem about logistics']]);
    expect(open.notes[0]).toMatch(/^No planning rule matched/);
  });

  it.each([
    ['agent', { agent_id: 'summariser' }, 'summariser'],
    ['tool', { tool_id: 'shipments_list', arguments: { limit: 100 } }, 'shipments_list'],
    ['llm', { function_id: 'gpt-4o-mini' }, 'gpt-4o-mini'],
    ['dsl', {}, 'report_assembly_workflow'],
  ] as const)('gives a %s task a registered uid and input the registry accepts', async (type, fields, uid) => {
    const task = PlannerTask.parse({ task_id: 't', description: 'Summarise the week', execution_type: type, ...fields });
    const result = await ruleBasedBackend.stage2(task, { text: 'report' }, registry);
    expect(result.uid).toBe(uid);
    expect(stage2Problems(task, result, registry)).toEqual([]);
  });
});
