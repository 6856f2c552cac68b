/**
 * Redundant dependencies (the complement of the transitive reduction of a DAG):
 * for every edge u → v, a depth-first search from u looks for another direct
 * prerequisite w of v; if u reaches w, the edge u → v is implied by u → … → w → v.
 *
 * Pruning: u can only reach w if pos[u] < pos[w] in a topological order and
 * level[u] < level[w] (longest-path layering), so each search is confined to
 * nodes below the highest position / level among v's other prerequisites, and
 * stops at the first prerequisite it meets. Edges whose source is already the
 * latest prerequisite of v (the common case in layered plans) need no search.
 *
 * Complexity: O(n + E) to set up, then for each edge u → v a search confined to
 * u's descendants positioned before v's latest other prerequisite:
 * O(E · (n + E)) in the worst case, about O(E · w · d) when dependencies stay
 * within a window of w tasks with out-degree d. Memory O(n) (typed arrays,
 * reused across searches). Measured on 2 cores (scripts/bench.ts): ~0.1 s for
 * 100k tasks / 300k mostly local edges; a uniformly random 100k-task DAG, where
 * every search spans much of the graph, takes ~6 s.
 */

import type { GraphIndex } from './index-build';
import { topologicalOrder, topologicalPositions } from './topological-order';
import { waveLevels } from './waves';

export interface RedundantEdge {
  /** Prerequisite whose direct edge to `to` is implied by another path. */
  from: number;
  to: number;
  /** Another direct prerequisite of `to` that `from` reaches: from → … → via → to. */
  via: number;
}

/**
 * Lists every edge implied by a longer path. Removing all of them at once yields
 * the transitive reduction and preserves reachability (for a DAG the reduction is
 * unique, so the removals never depend on each other).
 *
 * Throws on a cyclic graph: there the reduction is not unique and "redundant"
 * has no single answer. Run findCycle first.
 *
 * Result order: by `to` in node index order, then by `from` in dependency order.
 */
export function redundantEdges(index: GraphIndex, order?: Int32Array): RedundantEdge[] {
  const topo = order ?? topologicalOrder(index);
  if (topo === null) {
    throw new Error('redundantEdges: the graph has a cycle, so redundant edges are undefined; check findCycle first');
  }
  const level = waveLevels(index, topo);
  if (level === null) throw new Error('redundantEdges: unreachable, topological order without levels');
  const pos = topologicalPositions(topo);
  const { n, succOffsets, succ, predOffsets, pred } = index;

  // target[w] === v + 1 marks w as a direct prerequisite of the v being examined.
  const target = new Int32Array(n);
  // visited[x] === stamp marks x as seen by the current search; stamps never repeat, so no clearing.
  const visited = new Int32Array(n);
  const stack = new Int32Array(n);
  let stamp = 0;
  const result: RedundantEdge[] = [];

  for (let v = 0; v < n; v++) {
    const start = predOffsets[v]!;
    const end = predOffsets[v + 1]!;
    if (end - start < 2) continue;

    // Top two positions and levels among v's prerequisites give, for each
    // prerequisite u, the bound over the *other* ones without an inner loop.
    let pos1 = -1;
    let pos2 = -1;
    let posArg = -1;
    let lvl1 = -1;
    let lvl2 = -1;
    let lvlArg = -1;
    const mark = v + 1;
    for (let e = start; e < end; e++) {
      const w = pred[e]!;
      target[w] = mark;
      const p = pos[w]!;
      if (p > pos1) {
        pos2 = pos1;
        pos1 = p;
        posArg = w;
      } else if (p > pos2) pos2 = p;
      const l = level[w]!;
      if (l > lvl1) {
        lvl2 = lvl1;
        lvl1 = l;
        lvlArg = w;
      } else if (l > lvl2) lvl2 = l;
    }

    for (let e = start; e < end; e++) {
      const u = pred[e]!;
      const maxPos = u === posArg ? pos2 : pos1;
      const maxLvl = u === lvlArg ? lvl2 : lvl1;
      if (pos[u]! >= maxPos || level[u]! >= maxLvl) continue;

      stamp++;
      visited[u] = stamp;
      let top = 0;
      stack[0] = u;
      let via = -1;
      search: while (top >= 0) {
        const x = stack[top--]!;
        const sEnd = succOffsets[x + 1]!;
        for (let s = succOffsets[x]!; s < sEnd; s++) {
          const y = succ[s]!;
          if (visited[y] === stamp) continue;
          visited[y] = stamp;
          if (target[y] === mark) {
            via = y;
            break search;
          }
          // A node at or past the latest other prerequisite cannot lead back to one.
          if (pos[y]! >= maxPos || level[y]! >= maxLvl) continue;
          stack[++top] = y;
        }
      }
      if (via !== -1) result.push({ from: u, to: v, via });
    }
  }
  return result;
}
