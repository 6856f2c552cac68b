import type { ResourceKind } from '@/lib/registry';
import { EXECUTION_TYPES, type ExecutionType } from './execution-type-names';

// Everything Plangate knows about each of its four execution types, in one place: how
// planners spell it, which task field names its target and which registry lists hold
// those targets, what seed 000 calls it, what the dry run assumes it takes when nothing
// says, and how the canvas draws it. Validation, planning, the dry run and the editor all
// read a type's facts from here.

export interface ExecutionTypeDescriptor {
  type: ExecutionType;
  /** Other spellings planners write for it ("tool_call"), lower case; seed 000's sub_type among them. */
  aliases: readonly string[];
  /** The task field that names the resource a task of this type is routed to. */
  targetField: 'agent_id' | 'tool_id' | 'function_id';
  /** What that resource is, when a task must name one ("the agent that executes it"); null when it may be left to Stage 2. */
  requiredTarget: string | null;
  /** The registry lists its targets come from, keyed by `id` (LLMs by `name`). */
  registryKinds: readonly ResourceKind[];
  /** What one of those resources is called in messages ("dsl workflow"). */
  resourceNoun: string;
  /** Seed 000's `parameters.sub_type` spelling (PlanAndExecuteL2's routing table). */
  seedSubType: string;
  /** The dry run's latency for a task with no estimate and no registry default. */
  defaultLatencyMs: number;
  /** The canvas: the name on a task card, its symbol, and Tailwind classes for its accent. */
  label: string;
  icon: string;
  accent: string;
}

export const EXECUTION_TYPE_DESCRIPTORS = {
  agent: {
    type: 'agent',
    aliases: ['agents'],
    targetField: 'agent_id',
    requiredTarget: 'the agent that executes it',
    registryKinds: ['agents'],
    resourceNoun: 'agent',
    seedSubType: 'agent',
    defaultLatencyMs: 5000,
    label: 'Agent',
    icon: '◆',
    accent: 'border-l-violet-500 text-violet-700',
  },
  tool: {
    type: 'tool',
    // Seed 000's sub_type is "tools"; its replanning example says "tool_call".
    aliases: ['tools', 'tool_call', 'function'],
    targetField: 'tool_id',
    requiredTarget: 'the tool or function it calls',
    registryKinds: ['tools', 'functions'],
    resourceNoun: 'tool',
    seedSubType: 'tools',
    defaultLatencyMs: 1000,
    label: 'Tool',
    icon: '⚙',
    accent: 'border-l-cyan-600 text-cyan-700',
  },
  llm: {
    type: 'llm',
    aliases: [],
    targetField: 'function_id',
    // The model may be chosen in Stage 2 or be the executor's default.
    requiredTarget: null,
    registryKinds: ['llms'],
    resourceNoun: 'llm',
    seedSubType: 'llm',
    defaultLatencyMs: 3000,
    label: 'LLM',
    icon: '✦',
    accent: 'border-l-pink-500 text-pink-700',
  },
  dsl: {
    type: 'dsl',
    aliases: ['workflow'],
    targetField: 'function_id',
    requiredTarget: 'the DSL workflow it runs',
    registryKinds: ['dsl_workflows'],
    resourceNoun: 'dsl workflow',
    seedSubType: 'dsl',
    defaultLatencyMs: 2000,
    label: 'DSL',
    icon: '▤',
    accent: 'border-l-yellow-500 text-yellow-700',
  },
} as const satisfies { [T in ExecutionType]: ExecutionTypeDescriptor & { type: T } };

/**
 * What stands for a task whose type is none of the four: the dry run's latency for it and
 * how the canvas draws it (its label is the stored value when there is one).
 */
export const OTHER_EXECUTION_TYPE = {
  defaultLatencyMs: 1000,
  label: 'No type',
  icon: '?',
  accent: 'border-l-rose-500 text-rose-700',
} as const;

/** The descriptors in EXECUTION_TYPES order. */
export const EXECUTION_TYPE_LIST: readonly ExecutionTypeDescriptor[] = EXECUTION_TYPES.map((type) => EXECUTION_TYPE_DESCRIPTORS[type]);

/** The descriptor of a type, or undefined for a value that is none of the four. */
export function executionTypeDescriptor(type: string): ExecutionTypeDescriptor | undefined {
  return Object.hasOwn(EXECUTION_TYPE_DESCRIPTORS, type) ? EXECUTION_TYPE_DESCRIPTORS[type as ExecutionType] : undefined;
}
