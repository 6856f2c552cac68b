import type { ELK } from 'elkjs/lib/elk-api';
import type { PlanDocument } from '@/lib/plan';
import { toElkGraph, type LayoutTask, type NodeSize, type XYPosition } from './elk-graph';
import { layOutGraph } from './lay-out-graph';
import { layoutPositions } from './wrap-layers';

// The automatic layout, as one call: the editor's layout worker runs it in the browser, and
// the server runs it once for a plan that arrives without positions (a planner's plan, made
// over the API or imported), so that every later opening of the plan draws it at once
// instead of loading ELK and laying it out again in each browser.

/** Where the automatic layout puts each task: ELK for small plans, layer sweeps for large ones (lay-out-graph.ts). */
export async function layOutTasks(elk: ELK, tasks: ReadonlyArray<LayoutTask>, nodeSize?: NodeSize): Promise<Record<string, XYPosition>> {
  // Large plans' one-column-per-layer picture is refitted to the screen's shape.
  return layoutPositions(await layOutGraph(elk, toElkGraph(tasks, { nodeSize })), nodeSize);
}

/**
 * The largest new plan laid out where it is stored. Above it the layout is still quick, but
 * a big plan opens on its overview first and lays out its tasks in the browser's worker as
 * before; the bound keeps what one request asks of a compute worker small.
 */
export const FIRST_LAYOUT_MAX_TASKS = 2_000;

/**
 * Whether `document` needs its first layout: no task has a position. Positions someone sent
 * are never replaced here; for a plan with only some, the editor lays out every task when it
 * opens it, as before.
 */
export function needsFirstLayout(document: Pick<PlanDocument, 'plan' | 'view'>): boolean {
  const tasks = document.plan.planned_tasks;
  const saved = document.view.positions;
  return tasks.length > 0 && tasks.length <= FIRST_LAYOUT_MAX_TASKS && tasks.every((task) => !saved[task.task_id]);
}

/**
 * `document` with the positions the editor's first layout would give it, when it needs one;
 * `layOut` makes them (layOutTasks, wherever it runs). A graph the layout cannot handle, or a
 * layout that could not be made, leaves no positions: the editor then lays the plan out and
 * says what went wrong, as for any plan without them.
 */
export async function withFirstLayout<D extends Pick<PlanDocument, 'plan' | 'view'>>(
  layOut: (tasks: LayoutTask[]) => Promise<Record<string, XYPosition>>,
  document: D,
): Promise<D> {
  if (!needsFirstLayout(document)) return document;
  try {
    const positions = await layOut(document.plan.planned_tasks.map(({ task_id, dependencies }) => ({ task_id, dependencies })));
    return { ...document, view: { ...document.view, positions } };
  } catch {
    return document;
  }
}
