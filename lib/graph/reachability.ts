/**
 * Reachability: breadth-first search over the CSR index (successors for
 * descendants, predecessors for ancestors), with early exit for point queries.
 *
 * Complexity: O(n + E) worst case per query; `isReachable` stops as soon as the
 * target is seen, so it only pays for the part of the graph it explores.
 * Memory: O(n) per query (a fresh typed-array visited mark and queue).
 */

import type { GraphIndex } from './index-build';

function checkNode(fn: string, index: GraphIndex, i: number): void {
  if (!Number.isInteger(i) || i < 0 || i >= index.n) {
    throw new Error(`${fn}: node index ${String(i)} is out of range [0, ${index.n})`);
  }
}

function bfs(offsets: Int32Array, adj: Int32Array, n: number, start: number): number[] {
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  // The start node is marked but not reported: it is only its own ancestor or
  // descendant through a cycle, and callers ask about *other* tasks.
  seen[start] = 1;
  queue[tail++] = start;
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    const end = offsets[v + 1]!;
    for (let e = offsets[v]!; e < end; e++) {
      const w = adj[e]!;
      if (seen[w] === 0) {
        seen[w] = 1;
        queue[tail++] = w;
      }
    }
  }
  return Array.from(queue.subarray(1, tail));
}

/**
 * Every task that `i` transitively depends on, nearest first (BFS order).
 * Excludes `i` itself, even when `i` lies on a cycle.
 */
export function ancestors(index: GraphIndex, i: number): number[] {
  checkNode('ancestors', index, i);
  return bfs(index.predOffsets, index.pred, index.n, i);
}

/**
 * Every task that transitively depends on `i`, nearest first (BFS order).
 * Excludes `i` itself, even when `i` lies on a cycle.
 */
export function descendants(index: GraphIndex, i: number): number[] {
  checkNode('descendants', index, i);
  return bfs(index.succOffsets, index.succ, index.n, i);
}

/**
 * True when a path from → … → to exists following dependency edges
 * (prerequisite to dependent). A node reaches itself by the empty path, so
 * `isReachable(index, i, i)` is true.
 */
export function isReachable(index: GraphIndex, from: number, to: number): boolean {
  checkNode('isReachable', index, from);
  checkNode('isReachable', index, to);
  if (from === to) return true;
  return shortestPath(index, from, to) !== null;
}

/**
 * Shortest path (fewest edges) from → … → to as node indexes including both
 * ends, or null when `to` is not reachable. `[from]` when from === to.
 * Used by willCreateCycle to show the operator the shortest offending loop.
 */
export function shortestPath(index: GraphIndex, from: number, to: number): number[] | null {
  checkNode('shortestPath', index, from);
  checkNode('shortestPath', index, to);
  if (from === to) return [from];
  const { n, succOffsets, succ } = index;
  // parent[w] = v + 1 records the BFS tree and doubles as the visited mark (0 = unseen).
  const parent = new Int32Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  parent[from] = from + 1;
  queue[tail++] = from;
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    const end = succOffsets[v + 1]!;
    for (let e = succOffsets[v]!; e < end; e++) {
      const w = succ[e]!;
      if (parent[w] !== 0) continue;
      parent[w] = v + 1;
      if (w === to) {
        const path: number[] = [to];
        for (let x = v; x !== from; x = parent[x]! - 1) path.push(x);
        path.push(from);
        return path.reverse();
      }
      queue[tail++] = w;
    }
  }
  return null;
}
