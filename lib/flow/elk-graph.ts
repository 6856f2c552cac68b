/**
 * Translation between a plan's task list and the ELK graph format, and back.
 *
 * Why it exists: the plan canvas lays out task DAGs of up to a few thousand nodes
 * left to right with ELK's `layered` algorithm. Keeping the translation pure (no
 * DOM, no worker, no ELK runtime) lets the same code run in the layout Web Worker
 * and in Node tests, and keeps the layout options — the part that decides speed and
 * readability — in one reviewed place.
 */

import type { ElkExtendedEdge, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api';

export interface LayoutTask {
  task_id: string;
  /** Ids of the tasks this one waits for; the edge is drawn prerequisite → dependent. */
  dependencies: readonly string[];
}

export interface NodeSize {
  width: number;
  height: number;
}

/** Top-left corner of a node box, in px, as React Flow positions nodes. */
export interface XYPosition {
  x: number;
  y: number;
}

/** Size of a task node box on the canvas, in px. */
export const NODE_SIZE: Readonly<NodeSize> = Object.freeze({ width: 240, height: 84 });

/**
 * Options for the root graph. The canvas draws its own edges (React Flow), so ELK's
 * edge routes are thrown away; everything here is chosen for node positions that
 * read well and for speed on 1,000–5,000 nodes. Measured trade-offs are in the
 * report that accompanied this file and in `elk-graph.test.ts`.
 */
export const ELK_LAYOUT_OPTIONS: Readonly<LayoutOptions> = Object.freeze({
  'elk.algorithm': 'layered',
  // Prerequisites on the left, dependents on the right.
  'elk.direction': 'RIGHT',
  'elk.spacing.nodeNode': '40',
  'elk.layered.spacing.nodeNodeBetweenLayers': '80',
  // Edges are not drawn from ELK's routes, so keep their reserved space small;
  // otherwise dense layers push the next layer far to the right.
  'elk.spacing.edgeNode': '10',
  'elk.spacing.edgeEdge': '5',
  'elk.layered.spacing.edgeNodeBetweenLayers': '10',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '5',
  // Polyline routing is the cheapest router that keeps layer spacing fixed
  // (orthogonal routing widens the gap between busy layers for its routing slots).
  'elk.edgeRouting': 'POLYLINE',
  // Network-simplex layering keeps edges short, which means fewer dummy nodes for
  // the crossing minimiser to sort: it is the main speed lever on wide DAGs.
  'elk.layered.layering.strategy': 'NETWORK_SIMPLEX',
  // Layer sweep is ELK's standard crossing minimiser; lowering thoroughness cuts the
  // number of randomised restarts, the dominant cost on large graphs, and greedy
  // switching (quadratic per layer) is off outright.
  'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
  'elk.layered.thoroughness': '2',
  'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
  // Linear-time placement that aligns chains on straight lines.
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  // Lay out each connected component on its own (smaller problems) and stack them.
  'elk.separateConnectedComponents': 'true',
  'elk.spacing.componentComponent': '80',
  // Same input, same picture: the canvas must not reshuffle between renders.
  'elk.randomSeed': '1',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
});

/**
 * Builds the ELK input graph: one child per task and one edge per dependency
 * `dependency → task`. Duplicate task ids keep their first occurrence; dependencies
 * on unknown tasks, on the task itself and repeated dependencies are dropped, so the
 * result is always a graph ELK accepts.
 */
export function toElkGraph(
  tasks: ReadonlyArray<LayoutTask>,
  options: { nodeSize?: NodeSize } = {},
): ElkNode {
  const { width, height } = options.nodeSize ?? NODE_SIZE;
  const children: ElkNode[] = [];
  const known = new Set<string>();
  const kept: LayoutTask[] = [];
  for (const task of tasks) {
    if (known.has(task.task_id)) continue;
    known.add(task.task_id);
    kept.push(task);
    children.push({ id: task.task_id, width, height });
  }

  const edges: ElkExtendedEdge[] = [];
  for (const task of kept) {
    const seen = new Set<string>();
    for (const dep of task.dependencies) {
      if (dep === task.task_id || seen.has(dep) || !known.has(dep)) continue;
      seen.add(dep);
      // Edge ids live in their own namespace in ELK; they only need to be unique.
      edges.push({ id: `e${edges.length}`, sources: [dep], targets: [task.task_id] });
    }
  }

  return { id: 'root', layoutOptions: { ...ELK_LAYOUT_OPTIONS }, children, edges };
}

/** Reads node positions (top-left, whole px) out of a graph ELK has laid out. */
export function fromElkResult(result: ElkNode): Record<string, XYPosition> {
  // No prototype, so a task id such as `__proto__` is stored like any other.
  const positions: Record<string, XYPosition> = Object.create(null);
  for (const child of result.children ?? []) {
    positions[child.id] = { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) };
  }
  return positions;
}
