import { describe, expect, it } from 'vitest';
import { candidatesFor } from '@/lib/planning/stage2-check';
import { phase1Answer, stage2RequestOf } from '@/lib/planning/behavior-controller-protocol';
import { DEMO_REGISTRY, RESOURCE_KINDS, Registry, resourceKey } from '@/lib/registry';
import { TYPE_CODES, estimateTasks } from '@/lib/simulate/task-estimates';
import { validatePlan } from '@/lib/validate';
import { executionKind, normaliseExecutionType, taskTarget } from './execution-kind';
import { EXECUTION_TYPE_DESCRIPTORS, EXECUTION_TYPE_LIST, OTHER_EXECUTION_TYPE, executionTypeDescriptor } from './execution-types';
import { EXECUTION_TYPES, PlannerTask, TaskData } from './schema';

const registry = Registry.parse(DEMO_REGISTRY);
/** The first registered resource a task of this type may be routed to. */
const firstTarget = (type: (typeof EXECUTION_TYPES)[number]) => resourceKey(registry[EXECUTION_TYPE_DESCRIPTORS[type].registryKinds[0]][0]);

// As an operator reads them, articles by sound: "an agent task", "a dsl task".
const MISSING_TARGET: Record<string, string> = {
  agent: 'an agent task without an agent_id',
  tool: 'a tool task without a tool_id',
  dsl: 'a dsl task without a function_id',
};

describe('execution type descriptors', () => {
  it('describes each of the four types once, under its own name', () => {
    expect(EXECUTION_TYPE_LIST.map((d) => d.type)).toEqual([...EXECUTION_TYPES]);
    for (const type of EXECUTION_TYPES) expect(executionTypeDescriptor(type)).toBe(EXECUTION_TYPE_DESCRIPTORS[type]);
    for (const other of ['l2_task', 'constructor', 'toString', '']) expect(executionTypeDescriptor(other)).toBeUndefined();
  });

  it('gives each type its own spellings, sub_type, label and accent', () => {
    const spellings = EXECUTION_TYPE_LIST.flatMap((d) => [d.type, ...d.aliases]);
    expect(new Set(spellings).size).toBe(spellings.length);
    for (const key of ['seedSubType', 'label', 'icon', 'accent'] as const) {
      expect(new Set(EXECUTION_TYPE_LIST.map((d) => d[key])).size, key).toBe(EXECUTION_TYPES.length);
    }
    expect(EXECUTION_TYPE_LIST.map((d) => d.label)).not.toContain(OTHER_EXECUTION_TYPE.label);
  });

  it('routes every registry kind to exactly one type', () => {
    expect(EXECUTION_TYPE_LIST.flatMap((d) => d.registryKinds).sort()).toEqual([...RESOURCE_KINDS].sort());
  });

  it('reads each spelling, and seed 000 l2_task by its sub_type, as the type', () => {
    for (const d of EXECUTION_TYPE_LIST) {
      for (const spelling of [d.type, ...d.aliases]) expect(normaliseExecutionType(spelling.toUpperCase(), {})).toBe(d.type);
      expect(normaliseExecutionType('l2_task', { sub_type: d.seedSubType })).toBe(d.type);
    }
    expect(normaliseExecutionType('constructor', {})).toBe('constructor');
  });
});

describe('each type is read the same way by validation, planning and the dry run', () => {
  it.each(EXECUTION_TYPES)('%s', async (type) => {
    const d = EXECUTION_TYPE_DESCRIPTORS[type];
    const target = firstTarget(type);
    const routed = PlannerTask.parse({ task_id: 't', execution_type: type, [d.targetField]: target });
    const unrouted = PlannerTask.parse({ task_id: 't', execution_type: type });

    expect(taskTarget(routed)).toEqual({ kind: type, field: d.targetField, id: target });
    // Validation: the target is found among its registry kinds, and a missing one is an error unless Stage 2 may choose it.
    expect(validatePlan(TaskData.parse({ planned_tasks: [routed] }), registry).issues.filter((i) => i.severity === 'error')).toEqual([]);
    const missing = validatePlan(TaskData.parse({ planned_tasks: [unrouted] }), registry).issues.filter((i) => i.code === 'missing_target');
    expect(missing.map((i) => i.message)).toEqual(d.requiredTarget ? [`Task "t" is ${MISSING_TARGET[type]} (${d.requiredTarget})`] : []);
    // Planning: Stage 2 offers the same resources; a controller request naming one routes it through the same field; seed 000 gets the sub_type.
    expect([...candidatesFor(routed, registry).keys()]).toEqual(d.registryKinds.flatMap((kind) => registry[kind].map(resourceKey)));
    const request = stage2RequestOf(`Use ${target} for this`, registry).task;
    expect(taskTarget(request)).toMatchObject({ field: d.targetField, id: target });
    expect(phase1Answer([routed])[0]).toMatchObject({ execution_type: 'l2_task', parameters: { sub_type: d.seedSubType } });
    expect(executionKind(phase1Answer([routed])[0])).toBe(type);
    // The dry run: its type code, and the default latency when nothing else says.
    const estimates = estimateTasks([unrouted], registry);
    expect(TYPE_CODES[estimates.types[0]]).toBe(type);
    expect(estimates.durations[0]).toBe(d.defaultLatencyMs);
  });

  it('treats any other value as other, with its own default latency', () => {
    const estimates = estimateTasks([PlannerTask.parse({ task_id: 't', execution_type: 'teleport' })], registry);
    expect(TYPE_CODES[estimates.types[0]]).toBe('other');
    expect(estimates.durations[0]).toBe(OTHER_EXECUTION_TYPE.defaultLatencyMs);
  });
});
