/**
 * Execution waves: longest-path layering (level = number of edges on the longest
 * path from any source), computed by relaxing edges in topological order.
 *
 * Complexity: O(n + E) time, O(n) memory, plus the output arrays.
 *
 * Every task in wave k has all its prerequisites in waves < k and at least one in
 * wave k - 1, so wave k is the earliest moment a task can start with unlimited
 * workers; tasks in one wave never depend on each other.
 */

import type { GraphIndex } from './index-build';
import { topologicalOrder } from './topological-order';

/**
 * Level of every node, or null when the graph has a cycle.
 * Pass `order` when a topological order is already at hand to skip recomputing it.
 */
export function waveLevels(index: GraphIndex, order?: Int32Array): Int32Array | null {
  const topo = order ?? topologicalOrder(index);
  if (topo === null) return null;
  if (topo.length !== index.n) {
    throw new Error(`waveLevels: order has ${topo.length} entries but the graph has ${index.n} nodes`);
  }
  const { succOffsets, succ } = index;
  const level = new Int32Array(index.n);
  for (let k = 0; k < topo.length; k++) {
    const v = topo[k]!;
    const next = level[v]! + 1;
    const end = succOffsets[v + 1]!;
    for (let e = succOffsets[v]!; e < end; e++) {
      const w = succ[e]!;
      if (level[w]! < next) level[w] = next;
    }
  }
  return level;
}

/**
 * Node indexes grouped by level: result[k] holds the tasks of wave k, in node
 * index order. Returns null when the graph has a cycle; [] for an empty graph.
 */
export function waves(index: GraphIndex, order?: Int32Array): number[][] | null {
  const level = waveLevels(index, order);
  if (level === null) return null;
  const n = index.n;
  let depth = 0;
  for (let v = 0; v < n; v++) if (level[v]! >= depth) depth = level[v]! + 1;
  // Counting first lets each wave array be allocated at its final size.
  const counts = new Int32Array(depth);
  for (let v = 0; v < n; v++) counts[level[v]!]!++;
  const result: number[][] = new Array<number[]>(depth);
  for (let k = 0; k < depth; k++) result[k] = new Array<number>(counts[k]!);
  counts.fill(0);
  for (let v = 0; v < n; v++) {
    const k = level[v]!;
    result[k]![counts[k]!++] = v;
  }
  return result;
}
