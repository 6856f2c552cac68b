import { describe, expect, it } from 'vitest';
import { PlannerTask } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { Phase2OfferError, phase1Answer, phase2Registry, stage2RequestOf } from './behavior-controller-protocol';
import { offeredInPrompt } from './phase2-offer';
import { Stage1Input } from './planning-types';
import { ruleBasedBackend } from './rule-based-backend';
import { checkedStage2 } from './stage2-check';

const registry = Registry.parse(DEMO_REGISTRY);

// Seed 000's PlannerTask dataclass fields: `estimate_data` and `mark_replan` have no
// annotation there, so `PlannerTask(**task)` refuses them.
const SEED_FIELDS = [
  'task_id', 'main_task_id', 'description', 'execution_type', 'dependencies', 'tool_id', 'function_id', 'agent_id',
  'parameters', 'arguments', 'instructions', 'convertor_code', 'status', 'output', 'creation_time', 'last_update_time',
];

describe('phase1Answer', () => {
  it('gives every task parameters.sub_type in the seed spelling and only the dataclass fields', () => {
    const answer = phase1Answer([
      PlannerTask.parse({ task_id: 'a', execution_type: 'tool', tool_id: 'shipments_list', estimate_data: { latency_ms: 5 }, mark_replan: true }),
      PlannerTask.parse({ task_id: 'b', execution_type: 'agent', agent_id: 'analyst', parameters: { sub_type: 'agents', keep: 1 } }),
      PlannerTask.parse({ task_id: 'c', execution_type: 'l2_task', parameters: { sub_type: 'llm' } }),
      PlannerTask.parse({ task_id: 'd', execution_type: 'workflow', function_id: 'report_assembly_workflow' }),
    ]);
    for (const task of answer) expect(Object.keys(task).sort()).toEqual([...SEED_FIELDS].sort());
    expect(answer.map((t) => [t.execution_type, t.parameters])).toEqual([
      ['l2_task', { sub_type: 'tools' }],
      ['l2_task', { sub_type: 'agent', keep: 1 }],
      ['l2_task', { sub_type: 'llm' }],
      ['l2_task', { sub_type: 'dsl' }],
    ]);
  });

  it('refuses a task no sub_type can route', () => {
    expect(() => phase1Answer([PlannerTask.parse({ task_id: 'x', execution_type: 'teleport' })])).toThrow(/no seed 000 sub_type/);
  });

  it('holds for the rule-based planner, the offline default', async () => {
    for (const query of ['Get facilities in Berlin', 'Write a poem about logistics']) {
      const { tasks } = await ruleBasedBackend.stage1(Stage1Input.parse({ task_description: query, today: '2025-10-12' }), registry, () => {});
      for (const task of phase1Answer(tasks)) {
        expect(['agent', 'tools', 'llm', 'dsl']).toContain(task.parameters.sub_type);
        expect(Object.keys(task).sort()).toEqual([...SEED_FIELDS].sort());
      }
    }
  });
});

describe('Phase 2 offers', () => {
  it('reads the offered resources from a prompt: registered names and listed ids, whole words only', () => {
    const prompt = 'Available tools: facilities_list, inspections_list. Pick one.\n{"tools": [{"id": "their_own_tool"}], "note": "gpt-4o"}';
    expect(offeredInPrompt(prompt, registry).sort()).toEqual(['facilities_list', 'inspections_list', 'their_own_tool']);
  });

  it('chooses only among the offered resources', async () => {
    const prompt = 'Tools you may use: inspections_list (facility inspections). Input: {"facility_id": ["f-1"]}';
    const { task, inputData, offered } = stage2RequestOf(prompt, registry);
    expect(offered).toEqual(['inspections_list']);
    const narrowed = phase2Registry(task, offered, registry);
    expect(narrowed.tools.map((t) => t.id)).toEqual(['inspections_list']);
    const result = await checkedStage2(ruleBasedBackend, task, inputData, narrowed);
    expect(result.uid).toBe('inspections_list');
  });

  it('refuses an answer naming a resource that was not offered', async () => {
    const task = PlannerTask.parse({ task_id: 't', execution_type: 'tool', tool_id: 'shipments_list' });
    const narrowed = phase2Registry(task, ['facilities_list'], registry);
    // The task's own target was not offered, so the backend may not fall back to it.
    const result = await checkedStage2(ruleBasedBackend, task, {}, narrowed);
    expect(result.uid).toBe('facilities_list');
    const liar = { ...ruleBasedBackend, stage2: async () => ({ uid: 'shipments_list', input_data: {} }) };
    await expect(checkedStage2(liar, task, {}, narrowed)).rejects.toThrow(/not a registered tool resource/);
  });

  it('refuses a request whose offer holds nothing Plangate can choose, instead of picking something else', () => {
    const { task, offered } = stage2RequestOf({ task: { execution_type: 'tool' }, candidates: ['their_own_tool'] }, registry);
    expect(() => phase2Registry(task, offered, registry)).toThrow(Phase2OfferError);
  });

  it('counts a prose list of unregistered ids as the offer, so nothing else is chosen in their place', () => {
    const prompt = 'Agents: doc-summarizer-v2. Summarize the following input... {"text": "Full report goes here"}';
    const { task, offered } = stage2RequestOf(prompt, registry);
    expect(offered).toEqual(['doc-summarizer-v2']);
    expect(() => phase2Registry(task, offered, registry)).toThrow(Phase2OfferError);
    expect(offeredInPrompt('Tools: "a-1", b_2 and c.3; d\nLLMs: gpt-4o or claude-x.', registry).sort()).toEqual(['a-1', 'b_2', 'c.3', 'claude-x', 'd', 'gpt-4o']);
  });

  it('keeps the whole registry when the request offers nothing', () => {
    const { task, offered } = stage2RequestOf('Summarise this report with an agent', registry);
    expect(offered).toEqual([]);
    expect(phase2Registry(task, offered, registry)).toBe(registry);
  });
});
