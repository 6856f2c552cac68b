import { buildGraphIndex, willCreateCycle, type GraphIndex } from '@/lib/graph';
import type { PlannerTask } from '@/lib/plan';
import { taskLabel } from './task-label';

export type ConnectionVerdict = { ok: true } | { ok: false; message: string; cycle: string[] };

/**
 * Whether `to` may start depending on `from`, checked while the operator is still dragging.
 * `moving` names an edge being re-attached: it is left out of the graph, since it will
 * no longer exist once the move lands.
 */
export function checkConnection(
  tasks: readonly PlannerTask[],
  index: GraphIndex,
  from: string,
  to: string,
  moving?: { from: string; to: string },
): ConnectionVerdict {
  const byId = new Map(tasks.map((t) => [t.task_id, t]));
  const label = (id: string) => taskLabel(byId.get(id), id);
  if (!byId.has(from) || !byId.has(to)) return { ok: false, message: 'Connect two tasks of this plan', cycle: [] };
  if (from === to) return { ok: false, message: `“${label(to)}” cannot depend on itself`, cycle: [to] };
  const same = moving && moving.from === from && moving.to === to;
  if (!same && byId.get(to)!.dependencies.includes(from)) {
    return { ok: false, message: `“${label(to)}” already depends on “${label(from)}”`, cycle: [] };
  }
  let graph = index;
  if (moving) {
    graph = buildGraphIndex(
      tasks.map((t) => (t.task_id === moving.to ? { ...t, dependencies: t.dependencies.filter((d) => d !== moving.from) } : t)),
    );
  }
  const cycle = willCreateCycle(graph, from, to)?.cycle;
  if (cycle) {
    return { ok: false, message: `Would create a cycle: ${cycle.map(label).join(' → ')}`, cycle };
  }
  return { ok: true };
}
