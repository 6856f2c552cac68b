/**
 * Translation between a plan's task list and the ELK graph format, and back.
 *
 * Why it exists: the plan canvas lays out task DAGs of up to a few thousand nodes
 * left to right with ELK's `layered` algorithm. Keeping the translation pure (no
 * DOM, no worker, no ELK runtime) lets the same code run in the layout Web Worker
 * and in Node tests, and keeps the layout options — the part that decides speed and
 * readability — in one reviewed place.
 *
 * Two option sets, chosen by size (timings: Node 20 or a Chromium worker on 2 busy
 * cores, warm JIT; the first layout in a fresh worker costs up to ~2× more):
 * - up to LARGE_GRAPH_TASKS tasks, ELK does everything with its best-looking
 *   settings (≈0.1 s at 50 tasks, ≈0.6 s at 150);
 * - above that, the layers are computed here. ELK's own layering left many dummy
 *   nodes for long edges (127,000 for a 5,000-task plan), which made layouts take
 *   1.5–4.5 s at 1,000 tasks and ~30 s at 5,000, and its recursive searches
 *   overflowed a worker's stack on long chains (5,000 tasks in Chromium).
 *   Pre-layered, ELK still took ≈0.5 s at 1,000 tasks and ≈2.6 s at 10,000 to order
 *   the nodes within the layers, so layer-sweep.ts does that instead (≈20 and ≈50 ms;
 *   lay-out-graph.ts picks). FAST_OPTIONS remain for a large plan with a cycle, which
 *   ELK layers itself. One column per layer is far taller or wider than a screen for
 *   huge or many layers; wrap-layers.ts refits that picture (layoutPositions), so read
 *   positions through it.
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

/** ELK's spacings, in px: the fast layout's own ordering step (layer-sweep.ts) stacks layers with them too. */
export const ELK_SPACING = Object.freeze({ nodeNode: 40, betweenLayers: 80, edgeNode: 10, edgeEdge: 5 });

/** Plans with more tasks than this get the fast, pre-layered layout. */
export const LARGE_GRAPH_TASKS = 150;

/**
 * In the fast layout, dependencies spanning more layers than this are left out of
 * the ELK graph. The layers already order every dependency left to right, and React
 * Flow draws all edges itself, so a long edge would only add a dummy node per layer
 * crossed: it is the main cost of a large layout, for little effect on the order.
 */
const MAX_LAID_OUT_EDGE_SPAN = 2;

/**
 * Shared by both option sets. The canvas draws its own edges (React Flow), so
 * ELK's edge routes are thrown away; only node positions matter.
 */
const COMMON_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  // Prerequisites on the left, dependents on the right.
  'elk.direction': 'RIGHT',
  'elk.spacing.nodeNode': String(ELK_SPACING.nodeNode),
  'elk.layered.spacing.nodeNodeBetweenLayers': String(ELK_SPACING.betweenLayers),
  // Edges and the dummy nodes that carry long edges through a layer get little room:
  // nothing is drawn along ELK's routes, and generous edge spacing made busy layers
  // (and the gaps between them) much larger.
  'elk.spacing.edgeNode': String(ELK_SPACING.edgeNode),
  'elk.spacing.edgeEdge': String(ELK_SPACING.edgeEdge),
  'elk.layered.spacing.edgeNodeBetweenLayers': String(ELK_SPACING.edgeNode),
  'elk.layered.spacing.edgeEdgeBetweenLayers': String(ELK_SPACING.edgeEdge),
  'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
  // Greedy switching is quadratic per layer; ELK only enables it for tiny graphs anyway.
  'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
  // No labels or ports: skip per-node label and port placement.
  'elk.omitNodeMicroLayout': 'true',
  // Same input, same picture: the canvas must not reshuffle between renders.
  'elk.randomSeed': '1',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

/** Up to LARGE_GRAPH_TASKS tasks: the nicest picture ELK gives in well under a second. */
const DETAILED_OPTIONS: LayoutOptions = {
  ...COMMON_OPTIONS,
  // Network-simplex layering minimises the total edge span.
  'elk.layered.layering.strategy': 'NETWORK_SIMPLEX',
  // ELK's default number of crossing-minimisation passes.
  'elk.layered.thoroughness': '7',
  // Brandes–Köpf keeps pipelines on straight horizontal lines.
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  // With Brandes–Köpf, orthogonal routing needs the least room between layers
  // (polyline routing widened the gaps ~25% at 200 tasks).
  'elk.edgeRouting': 'ORTHOGONAL',
  // Each connected component is laid out on its own and they are stacked, so
  // independent sub-plans and loose tasks stay apart.
  'elk.separateConnectedComponents': 'true',
  'elk.spacing.componentComponent': '80',
};

/**
 * More than LARGE_GRAPH_TASKS tasks: speed and a compact picture first. When toElkGraph
 * assigned the layers (the interactive strategy below says so), layer-sweep.ts lays the
 * graph out instead of ELK, stacking layers as SIMPLE placement does; a plan with a cycle
 * goes to ELK with these options and network-simplex layering.
 */
const FAST_OPTIONS: LayoutOptions = {
  ...COMMON_OPTIONS,
  // Layers come from the x coordinates toElkGraph assigns (see assignLayers).
  'elk.layered.layering.strategy': 'INTERACTIVE',
  // One crossing-minimisation pass instead of seven.
  'elk.layered.thoroughness': '1',
  // Centres each layer. Brandes–Köpf made 1,000-task plans 5–14× taller;
  // network-simplex placement overflowed the stack; linear segments was ~8× slower.
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  // With centred layers nearly every edge bends, and orthogonal routing then
  // reserves a slot per edge between layers (2× wider); polyline does not.
  'elk.edgeRouting': 'POLYLINE',
  // ELK finds components with a recursive search that overflows on long chains;
  // one graph costs the same time.
  'elk.separateConnectedComponents': 'false',
};

/**
 * Layer of every node for the fast layout, or null when the graph has a cycle.
 * Each node goes one layer before its earliest dependent (tasks without dependents
 * stay at their earliest possible layer), which keeps edges short: set-up steps sit
 * next to the tasks that use them rather than all in the first column. Iterative,
 * O(n + e): no recursion, whatever the depth of the plan.
 */
function assignLayers(n: number, from: readonly number[], to: readonly number[]): Int32Array | null {
  const successors: number[][] = Array.from({ length: n }, () => []);
  const waiting = new Int32Array(n);
  for (let e = 0; e < from.length; e++) {
    successors[from[e]].push(to[e]);
    waiting[to[e]]++;
  }
  const order: number[] = [];
  for (let v = 0; v < n; v++) if (waiting[v] === 0) order.push(v);
  for (let head = 0; head < order.length; head++) {
    for (const s of successors[order[head]]) if (--waiting[s] === 0) order.push(s);
  }
  if (order.length < n) return null;

  const layer = new Int32Array(n);
  for (const v of order) for (const s of successors[v]) layer[s] = Math.max(layer[s], layer[v] + 1);
  for (let i = n - 1; i >= 0; i--) {
    const v = order[i];
    const next = successors[v];
    if (next.length === 0) continue;
    let earliest = Infinity;
    for (const s of next) earliest = Math.min(earliest, layer[s]);
    layer[v] = earliest - 1;
  }
  return layer;
}

/**
 * Builds the ELK input graph: one child per task, fixed size, and one edge
 * `dependency → task` per dependency. Duplicate task ids keep their first
 * occurrence; dependencies on unknown tasks, on the task itself and repeated
 * dependencies are dropped, so the result is always a graph ELK accepts.
 *
 * Above LARGE_GRAPH_TASKS tasks the layers are assigned here (as x coordinates
 * ELK's interactive layering reads) and dependencies spanning more than
 * MAX_LAID_OUT_EDGE_SPAN layers are left out; every dependency still points left
 * to right. A cyclic plan falls back to ELK's own layering with all edges.
 */
export function toElkGraph(
  tasks: ReadonlyArray<LayoutTask>,
  options: { nodeSize?: NodeSize } = {},
): ElkNode {
  const { width, height } = options.nodeSize ?? NODE_SIZE;
  const index = new Map<string, number>();
  const unique: LayoutTask[] = [];
  for (const task of tasks) {
    if (index.has(task.task_id)) continue;
    index.set(task.task_id, unique.length);
    unique.push(task);
  }

  const from: number[] = [];
  const to: number[] = [];
  unique.forEach((task, target) => {
    const seen = new Set<number>();
    for (const dep of task.dependencies) {
      const source = index.get(dep);
      if (source === undefined || source === target || seen.has(source)) continue;
      seen.add(source);
      from.push(source);
      to.push(target);
    }
  });

  const large = unique.length > LARGE_GRAPH_TASKS;
  const layoutOptions = { ...(large ? FAST_OPTIONS : DETAILED_OPTIONS) };
  const layer = large ? assignLayers(unique.length, from, to) : null;
  if (large && !layer) layoutOptions['elk.layered.layering.strategy'] = 'NETWORK_SIMPLEX';

  const children: ElkNode[] = unique.map((task, i) =>
    // Layers one node width + 1 px apart never overlap, so ELK reads them apart.
    layer ? { id: task.task_id, width, height, x: layer[i] * (width + 1), y: 0 } : { id: task.task_id, width, height },
  );
  const edges: ElkExtendedEdge[] = [];
  for (let e = 0; e < from.length; e++) {
    if (layer && layer[to[e]] - layer[from[e]] > MAX_LAID_OUT_EDGE_SPAN) continue;
    // Edge ids live in their own namespace in ELK; they only need to be unique.
    edges.push({ id: `e${e}`, sources: [unique[from[e]].task_id], targets: [unique[to[e]].task_id] });
  }
  return { id: 'root', layoutOptions, children, edges };
}

/** Whether toElkGraph assigned the graph's layers itself (a large plan without a cycle). */
export function hasAssignedLayers(graph: ElkNode): boolean {
  return graph.layoutOptions?.['elk.layered.layering.strategy'] === 'INTERACTIVE';
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
