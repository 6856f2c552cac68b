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
 * Above this many tasks the layout switches from the detailed option set to the
 * fast one. Measured in Node on 2 cores (see the report in elk-graph.test.ts): the
 * detailed set takes ~0.1 s at 50 tasks and ~0.6–0.8 s at 200, but grows to 2–5 s at
 * 1,000 and lays such graphs out ~14× larger in area than the fast set.
 */
export const LARGE_GRAPH_TASKS = 200;

/**
 * Shared by both option sets. The canvas draws its own edges (React Flow), so
 * ELK's edge routes are thrown away; only node positions matter.
 */
const COMMON_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  // Prerequisites on the left, dependents on the right.
  'elk.direction': 'RIGHT',
  'elk.spacing.nodeNode': '40',
  'elk.layered.spacing.nodeNodeBetweenLayers': '80',
  // Edges and the dummy nodes that carry long edges through a layer get little room:
  // nothing is drawn along ELK's routes, and generous edge spacing made busy layers
  // (and the gaps between them) much larger.
  'elk.spacing.edgeNode': '10',
  'elk.spacing.edgeEdge': '5',
  'elk.layered.spacing.edgeNodeBetweenLayers': '10',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '5',
  // Network-simplex layering minimises the total edge span, hence the number of dummy
  // nodes every later phase has to handle; the longest-path layerers were slower here
  // (more dummies) and Coffman–Graham several times slower.
  'elk.layered.layering.strategy': 'NETWORK_SIMPLEX',
  'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
  // Greedy switching is quadratic per layer; ELK only enables it for tiny graphs anyway.
  'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
  // No labels or ports: skip per-node label and port placement.
  'elk.omitNodeMicroLayout': 'true',
  // Same input, same picture: the canvas must not reshuffle between renders.
  'elk.randomSeed': '1',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

/** Up to LARGE_GRAPH_TASKS tasks: the nicest picture ELK gives within ~1 s. */
const DETAILED_OPTIONS: LayoutOptions = {
  ...COMMON_OPTIONS,
  // ELK's default number of crossing-minimisation passes.
  'elk.layered.thoroughness': '7',
  // Brandes–Köpf keeps pipelines on straight horizontal lines.
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  // With Brandes–Köpf, orthogonal routing needs the least room between layers
  // (polyline routing widened the gaps ~25% at 200 tasks, ~2.7× at 1,000).
  'elk.edgeRouting': 'ORTHOGONAL',
  // Each connected component is laid out on its own and they are stacked, so
  // independent sub-plans and loose tasks stay apart.
  'elk.separateConnectedComponents': 'true',
  'elk.spacing.componentComponent': '80',
};

/** More than LARGE_GRAPH_TASKS tasks: speed and a compact picture first. */
const FAST_OPTIONS: LayoutOptions = {
  ...COMMON_OPTIONS,
  // One crossing-minimisation pass instead of seven: ~2× faster at 1,000 tasks.
  'elk.layered.thoroughness': '1',
  // Centres each layer. Brandes–Köpf gave each long edge its own lane and made
  // 1,000-task plans ~14× taller (42,000 px against 3,000 px); network-simplex
  // placement overflowed the stack; linear segments was ~8× slower.
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  // With centred layers nearly every edge bends, and orthogonal routing then
  // reserves a slot per edge between layers (2× wider); polyline does not.
  'elk.edgeRouting': 'POLYLINE',
  // ELK finds components with a recursive search that overflowed the stack on a
  // 5,000-task chain; laying the whole graph out at once costs the same time.
  'elk.separateConnectedComponents': 'false',
};

/** The ELK layout options used for a plan of `taskCount` tasks. */
export function layoutOptionsFor(taskCount: number): LayoutOptions {
  return { ...(taskCount > LARGE_GRAPH_TASKS ? FAST_OPTIONS : DETAILED_OPTIONS) };
}

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

  return { id: 'root', layoutOptions: layoutOptionsFor(children.length), children, edges };
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
