import { describe, expect, it } from 'vitest';
import { plannerAgentFormat } from '@/lib/formats/planner-agent';
import { readFixture } from '@/lib/formats/test-support';
import { TaskData, type TaskDataInput } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { validatePlan } from './validate-plan';

const registry = Registry.parse(DEMO_REGISTRY);
const codes = (input: TaskDataInput, withRegistry: Registry | null = registry) =>
  validatePlan(TaskData.parse(input), withRegistry ?? undefined)
    .issues.filter((issue) => issue.severity === 'error')
    .map((issue) => [issue.code, issue.message]);

const EXAMPLES = [1, 2, 3, 4, 5, 6, 7].map((n) => readFixture('planner-agent', `example-${n}-${['simple-query', 'filtered-query', 'location-query', 'multi-step', 'nested-data', 'parallel', 'three-step-chain'][n - 1]}.json`));

describe('registry-aware validation', () => {
  it("accepts each of seed 001's seven example plans against the demo registry", () => {
    for (const text of EXAMPLES) {
      const { plan } = plannerAgentFormat.parse(text);
      expect(validatePlan(TaskData.parse(plan), registry).issues.filter((i) => i.severity === 'error')).toEqual([]);
    }
  });

  it('names a target that is not registered, or is registered as another kind', () => {
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'tool', tool_id: 'shipments_delete' }] })).toEqual([
      ['unknown_target', 'Task "a" is routed to tool "shipments_delete", which is not in the registry'],
    ]);
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'agent', agent_id: 'shipments_list' }] })).toEqual([
      ['target_type_mismatch', 'Task "a" is an agent task, but "shipments_list" (its agent_id) is a registered tool'],
    ]);
  });

  it('matches targets case-insensitively and agents by name, as imported plans name them', () => {
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'agent', agent_id: 'Analyst' }] })).toEqual([]);
  });

  it('ignores schema patterns, so an editor cannot make validation take exponential time', () => {
    const evil = Registry.parse({ tools: [{ id: 'p', input_schema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } }] });
    // With the pattern live this would run for minutes and time the test out.
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'tool', tool_id: 'p', arguments: { s: 'a'.repeat(40) + 'b' } }] }, evil)).toEqual([]);
  });

  it('reads step[i] as the task step-i when tasks are so named, and never as another task by position', () => {
    const plan: TaskDataInput = {
      planned_tasks: [
        { task_id: 'step-0', execution_type: 'tool', tool_id: 'facilities_list' },
        { task_id: 'step-2', execution_type: 'tool', tool_id: 'shipments_list', arguments: { facility_id: '${step[1].data.*.id}' }, dependencies: ['step-0'] },
      ],
    };
    expect(codes(plan, null)).toEqual([['unresolved_reference', 'Task "step-2" uses step[1], but the plan has no step 1']]);
  });

  it('leaves targets of a kind the registry does not describe unchecked', () => {
    const toolsOnly = Registry.parse({ tools: [{ id: 'get' }] });
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'agent', agent_id: 'anyone' }] }, toolsOnly)).toEqual([]);
  });

  it("checks a tool's parameters against its input schema, letting templates through", () => {
    const strict = Registry.parse({
      tools: [{ id: 'get', input_schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, limit: { type: 'integer' } }, additionalProperties: false } }],
    });
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'tool', tool_id: 'get', arguments: { limit: 'ten', extra: 1 } }] }, strict)).toEqual([
      ['missing_parameter', 'Task "a" does not give "id", which get requires'],
      ['invalid_parameter', 'Task "a": "limit" for get: Invalid input: expected number, received string'],
      ['unknown_parameter', 'Task "a" gives "extra", which get does not take (it takes id, limit)'],
    ]);
    expect(codes({ planned_tasks: [{ task_id: 'a', execution_type: 'tool', tool_id: 'get', arguments: { id: '${step[0].data[0].id}' } }] }, strict)).toEqual([
      ['reference_not_upstream', 'Task "a" uses step[0] ("a"), but does not depend on it'],
    ]);
  });

  it('refuses a template or state reference to a task that is not upstream, with or without a registry', () => {
    const plan: TaskDataInput = {
      planned_tasks: [
        { task_id: 'step-0', execution_type: 'tool', tool_id: 'facilities_list', arguments: { location: 'Berlin' } },
        { task_id: 'step-1', execution_type: 'tool', tool_id: 'shipments_list', arguments: { facility_id: '${step[0].data.*.id}' } },
        { task_id: 'step-2', execution_type: 'tool', tool_id: 'contaminants_list', arguments: { shipment_ids: '${step[7].data.*.id}' }, dependencies: ['step-1'] },
      ],
    };
    expect(codes(plan, null)).toEqual([
      ['reference_not_upstream', 'Task "step-1" uses step[0] ("step-0"), but does not depend on it'],
      ['unresolved_reference', 'Task "step-2" uses step[7], but the plan has no step 7'],
    ]);
    const state: TaskDataInput = {
      planned_tasks: [
        { task_id: 'w', execution_type: 'tool', tool_id: 'x', parameters: { _outputPath: '†state.items' } },
        { task_id: 'r', execution_type: 'tool', tool_id: 'y', arguments: { list: '†state.items.0' } },
      ],
    };
    expect(codes(state, null)).toEqual([['reference_not_upstream', 'Task "r" reads †state.items.0, written by "w", but does not depend on it']]);
  });

  it('relates state by whole segments: an index reads what its list\'s writer wrote, a longer name is other state', () => {
    const state: TaskDataInput = {
      planned_tasks: [
        { task_id: 'w', execution_type: 'tool', tool_id: 'x', parameters: { _outputPath: '†state.receipt || †state.items' } },
        { task_id: 'r', execution_type: 'tool', tool_id: 'y', arguments: { first: 'first: †state.items[0].name', other: '†state.receipts' } },
      ],
    };
    expect(codes(state, null)).toEqual([['reference_not_upstream', 'Task "r" reads †state.items[0].name, written by "w", but does not depend on it']]);
  });
});
