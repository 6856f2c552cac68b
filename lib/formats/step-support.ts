import { buildGraphIndex, findCycle, topologicalOrder } from '@/lib/graph';
import { formatPath, type PlannerTask } from '@/lib/plan';
import type { ExportReport } from './export-drops';

// Shared by the adapters whose formats are ordered lists of tool calls (Planner Agent
// steps, state data-flow calls): walking argument values, ordering by dependencies, and
// reporting the ids a positional list renames.

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

/** Task id → its position; a repeated id keeps its first position (as lib/graph does) and is reported. */
export function firstPositions(tasks: readonly PlannerTask[], report: ExportReport): Map<string, number> {
  const position = new Map<string, number>();
  tasks.forEach((task, i) => {
    if (position.has(task.task_id)) report.task(task.task_id, 'task_id', 'the id is used more than once; dependencies on it point at the first');
    else position.set(task.task_id, i);
  });
  return position;
}

/** Formats that know tasks by position rename them on import; says which, once, and marks each id lost. */
export function reportRenames(tasks: readonly PlannerTask[], order: readonly number[], idAt: (rank: number) => string, what: string, report: ExportReport): void {
  const renamed = order.flatMap((p, rank) => (tasks[p].task_id === idAt(rank) ? [] : [[tasks[p].task_id, idAt(rank)] as const]));
  if (renamed.length === 0) return;
  for (const [from] of renamed) report.lost.push({ at: 'task', task_id: from, field: 'task_id' });
  const shown = renamed.slice(0, 5).map(([from, to]) => `${from} → ${to}`).join(', ') + (renamed.length > 5 ? `, and ${renamed.length - 5} more` : '');
  report.note(`task ids: ${what} are known by position, so importing this file renames ${shown}`);
}
