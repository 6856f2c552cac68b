/**
 * Critical path: longest node-weighted path in a DAG, by dynamic programming over
 * a topological order (each node's finish = its duration + the latest finish
 * among its prerequisites).
 *
 * Complexity: O(n + E) time, O(n) memory; durationOf is called once per node.
 */

import type { GraphIndex } from './index-build';
import { topologicalOrder } from './topological-order';

export interface CriticalPath {
  /** Sum of the durations of the tasks on `path`. */
  length: number;
  /** Node indexes from a source to a sink, each a prerequisite of the next. */
  path: number[];
}

/**
 * Returns the longest path by total duration, or null when the graph has a cycle.
 * An empty graph yields `{ length: 0, path: [] }`. Ties are broken towards the
 * lowest node index, so the result is deterministic.
 *
 * Throws when a duration is negative or not finite: a longest path over such
 * weights would be meaningless rather than merely surprising.
 */
export function criticalPath(
  index: GraphIndex,
  durationOf: (i: number) => number,
  order?: Int32Array,
): CriticalPath | null {
  const topo = order ?? topologicalOrder(index);
  if (topo === null) return null;
  const { n, predOffsets, pred } = index;
  if (topo.length !== n) {
    throw new Error(`criticalPath: order has ${topo.length} entries but the graph has ${n} nodes`);
  }
  if (n === 0) return { length: 0, path: [] };

  const finish = new Float64Array(n);
  const via = new Int32Array(n);
  let best = -1;
  for (let k = 0; k < n; k++) {
    const v = topo[k]!;
    const d = durationOf(v);
    if (!Number.isFinite(d) || d < 0) {
      throw new Error(
        `criticalPath: duration of task "${index.ids[v]}" must be a finite number >= 0, got ${String(d)}`,
      );
    }
    // -1 is below every finish time, so the first prerequisite always wins the first comparison.
    let start = -1;
    let from = -1;
    const end = predOffsets[v + 1]!;
    for (let e = predOffsets[v]!; e < end; e++) {
      const u = pred[e]!;
      const f = finish[u]!;
      if (f > start || (f === start && u < from)) {
        start = f;
        from = u;
      }
    }
    if (from === -1) start = 0;
    finish[v] = start + d;
    via[v] = from;
    if (best === -1 || finish[v]! > finish[best]! || (finish[v] === finish[best] && v < best)) best = v;
  }

  const path: number[] = [];
  for (let v = best; v !== -1; v = via[v]!) path.push(v);
  path.reverse();
  return { length: finish[best]!, path };
}
