/**
 * Topological order: Kahn's algorithm with a FIFO queue in a typed array.
 *
 * Complexity: O(n + E) time, O(n) memory.
 *
 * The queue array doubles as the result (every node enters it exactly once, in
 * topological order), so nothing is copied. Sources are seeded in node index
 * order, which keeps the result deterministic and close to the input order.
 */

import type { GraphIndex } from './index-build';

/**
 * Returns node indexes in an order where every prerequisite comes before its
 * dependents, or null when the graph has a cycle (use `findCycle` for the path).
 */
export function topologicalOrder(index: GraphIndex): Int32Array | null {
  const { n, succOffsets, succ, predOffsets } = index;
  const indegree = new Int32Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  for (let v = 0; v < n; v++) {
    const d = predOffsets[v + 1]! - predOffsets[v]!;
    indegree[v] = d;
    if (d === 0) queue[tail++] = v;
  }
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    const end = succOffsets[v + 1]!;
    for (let e = succOffsets[v]!; e < end; e++) {
      const w = succ[e]!;
      if (--indegree[w]! === 0) queue[tail++] = w;
    }
  }
  return tail === n ? queue : null;
}

/**
 * Inverse permutation of a topological order: position[v] = rank of v. Lets other
 * algorithms prune searches (u can reach w only if position[u] < position[w]).
 */
export function topologicalPositions(order: Int32Array): Int32Array {
  const position = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) position[order[k]!] = k;
  return position;
}
