import { buildGraphIndex, findCycle, topologicalOrder } from '@/lib/graph';
import { executionKind, formatPath, type PlannerTask } from '@/lib/plan';

// Shared by the adapters whose formats are ordered lists of tool calls (Planner Agent
// steps, state data-flow calls): walking argument values, ordering by dependencies, and
// naming the task fields such a list cannot hold.

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}


/** Calls `visit` for every string inside `value`, with its JSON path below `at`. */
export function visitStrings(value: unknown, at: string, visit: (text: string, path: string) => void): void {
  if (typeof value === 'string') visit(value, at);
  else if (Array.isArray(value)) value.forEach((item, i) => visitStrings(item, `${at}[${i}]`, visit));
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) visitStrings(item, formatPath([key], at), visit);
}

/**
 * Positions of `preds` (predecessor positions per node) in an order where each node
 * follows its predecessors: the given order when it already is one, else Kahn's order
 * from lib/graph. Returns the cycle (as positions) when there is none.
 */
export function orderOf(preds: number[][]): { order: number[] } | { cycle: number[] } {
  if (preds.every((ps, i) => ps.every((p) => p < i))) return { order: preds.map((_, i) => i) };
  const index = buildGraphIndex(preds.map((ps, i) => ({ task_id: String(i), dependencies: ps.map(String) })));
  const order = topologicalOrder(index);
  if (order) return { order: Array.from(order, (v) => Number(index.ids[v])) };
  return { cycle: (findCycle(index) ?? []).map(Number) };
}

/** The PlannerTask fields a tool-call list has no place for, as `dropped` entries. */
export function uncarriedTaskFields(task: PlannerTask, tool: string, written: string): string[] {
  const lost: string[] = [];
  // The stored spelling is what is lost (seed 000's l2_task of sub_type tools reads back as "tool").
  if (task.execution_type !== 'tool') lost.push(`execution_type "${task.execution_type}" (written as ${written} "${tool}")`);
  if (executionKind(task) === 'tool' && !task.tool_id) lost.push(`tool_id (none; wrote "${tool}")`);
  if (task.agent_id) lost.push('agent_id');
  if (task.function_id) lost.push('function_id');
  if (task.instructions) lost.push('instructions');
  if (task.convertor_code) lost.push('convertor_code');
  if (task.estimate_data) lost.push('estimate_data');
  if (task.mark_replan) lost.push('mark_replan');
  if (task.main_task_id) lost.push('main_task_id');
  if (task.status !== 'pending') lost.push(`status "${task.status}"`);
  if (Object.keys(task.output).length > 0) lost.push('output');
  return lost;
}

/** Task id → its position; a repeated id keeps its first position (as lib/graph does) and is reported. */
export function firstPositions(tasks: readonly PlannerTask[], dropped: string[]): Map<string, number> {
  const position = new Map<string, number>();
  tasks.forEach((task, i) => {
    if (position.has(task.task_id)) dropped.push(`task ${task.task_id}: the id is used more than once; dependencies on it point at the first`);
    else position.set(task.task_id, i);
  });
  return position;
}
