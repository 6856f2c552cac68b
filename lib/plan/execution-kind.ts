import { EXECUTION_TYPE_DESCRIPTORS, EXECUTION_TYPE_LIST, type ExecutionTypeDescriptor } from './execution-types';
import { EXECUTION_TYPES, type ExecutionType } from './execution-type-names';
import type { PlannerTask } from './schema';

// A task's `execution_type` is stored exactly as its planner wrote it (seed 000's executor
// tests `execution_type == "l2_task"`, so rewriting it would stop that executor running
// anything). Plangate's own checks, dry run and UI need one of four kinds; this derives it
// on read and never writes it back.

// Each type's own name and the spellings other planners use for it (execution-types.ts).
// Seed 000 routes `l2_task` by `parameters.sub_type`, whose tool spelling is "tools".
const EXECUTION_TYPE_ALIASES: ReadonlyMap<string, ExecutionType> = new Map(
  EXECUTION_TYPE_LIST.flatMap((d) => [d.type, ...d.aliases].map((spelling) => [spelling, d.type] as const)),
);

/**
 * The canonical execution type for a raw value, or the raw value unchanged when it is
 * not one we know (validation reports it; the plan is still stored as a draft).
 */
export function normaliseExecutionType(raw: string, parameters: Record<string, unknown>): string {
  const key = raw.trim().toLowerCase();
  if (key === 'l2_task') {
    const subType = parameters.sub_type;
    return typeof subType === 'string' ? (EXECUTION_TYPE_ALIASES.get(subType.trim().toLowerCase()) ?? raw) : raw;
  }
  return EXECUTION_TYPE_ALIASES.get(key) ?? raw;
}

export function isExecutionType(value: string): value is ExecutionType {
  return (EXECUTION_TYPES as readonly string[]).includes(value);
}

/**
 * The kind Plangate routes, checks and simulates a task as: agent | tool | llm | dsl, or
 * the stored value ('' when none) when it names none of them.
 */
export function executionKind(task: Pick<PlannerTask, 'execution_type'> & { parameters?: PlannerTask['parameters'] }): string {
  return normaliseExecutionType(task.execution_type ?? '', task.parameters ?? {});
}

/**
 * Where a task is routed: its kind, the field naming the resource and that name, or null
 * when its kind is unknown or the field is empty. Validation, the missing-target check and
 * the resources an approval binds all read targets through this.
 */
export function taskTarget(
  task: Pick<PlannerTask, 'execution_type' | 'agent_id' | 'tool_id' | 'function_id'> & { parameters?: PlannerTask['parameters'] },
): { kind: ExecutionType; field: ExecutionTypeDescriptor['targetField']; id: string } | null {
  const kind = executionKind(task);
  if (!isExecutionType(kind)) return null;
  const field = EXECUTION_TYPE_DESCRIPTORS[kind].targetField;
  const id = task[field];
  return id ? { kind, field, id } : null;
}
