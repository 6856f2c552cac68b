/**
 * Test support for lib/graph (not exported from index.ts): fast-check generators
 * for small random plans and brute-force oracles that do not use the CSR index,
 * so the property tests compare two independent implementations.
 */

import fc from 'fast-check';
import type { GraphTaskInput } from './index-build';

export interface SmallGraph {
  n: number;
  /** Edges as [prerequisite, dependent] node numbers; no self-loops, no duplicates. */
  edges: Array<[number, number]>;
  tasks: GraphTaskInput[];
}

export const idOf = (i: number): string => `task-${i}`;

function toGraph(n: number, raw: Array<[number, number]>, rank: number[] | null): SmallGraph {
  const seen = new Set<string>();
  const edges: Array<[number, number]> = [];
  for (const [a0, b0] of raw) {
    if (a0 === b0) continue;
    // For DAGs, orienting every edge from lower to higher rank makes cycles impossible.
    const [a, b] = rank === null || rank[a0]! < rank[b0]! ? [a0, b0] : [b0, a0];
    const key = `${a}>${b}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push([a, b]);
  }
  const deps: string[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) deps[b]!.push(idOf(a));
  const tasks = deps.map((dependencies, i) => ({ task_id: idOf(i), dependencies }));
  return { n, edges, tasks };
}

const rawGraph = (maxNodes: number) =>
  fc.integer({ min: 0, max: maxNodes }).chain((n) =>
    fc.record({
      n: fc.constant(n),
      rank: fc.shuffledSubarray(
        Array.from({ length: n }, (_, i) => i),
        { minLength: n, maxLength: n },
      ),
      edges:
        n === 0
          ? fc.constant<Array<[number, number]>>([])
          : fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
    }),
  );

/** Random DAG: edge orientation follows a random rank, so node numbers are not a topological order. */
export const dagArb = (maxNodes = 30): fc.Arbitrary<SmallGraph> =>
  rawGraph(maxNodes).map(({ n, rank, edges }) => {
    const r = new Array<number>(n);
    rank.forEach((node, k) => (r[node] = k));
    return toGraph(n, edges, r);
  });

/** Random directed graph, usually cyclic once it has a few edges. */
export const anyGraphArb = (maxNodes = 30): fc.Arbitrary<SmallGraph> =>
  rawGraph(maxNodes).map(({ n, edges }) => toGraph(n, edges, null));

/** Either kind, so properties about "cyclic or not" see both. */
export const mixedGraphArb = (maxNodes = 30): fc.Arbitrary<SmallGraph> =>
  fc.oneof(dagArb(maxNodes), anyGraphArb(maxNodes));

/** reach[a][b]: a path of length >= 1 from a to b exists. Plain BFS per node. */
export function reachMatrix(g: SmallGraph): boolean[][] {
  const adj: number[][] = Array.from({ length: g.n }, () => []);
  for (const [a, b] of g.edges) adj[a]!.push(b);
  return Array.from({ length: g.n }, (_, s) => {
    const row = new Array<boolean>(g.n).fill(false);
    const queue = [...adj[s]!];
    for (const w of queue) row[w] = true;
    while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of adj[v]!) {
        if (!row[w]) {
          row[w] = true;
          queue.push(w);
        }
      }
    }
    return row;
  });
}

export function isAcyclic(g: SmallGraph): boolean {
  const reach = reachMatrix(g);
  return reach.every((row, i) => !row[i]);
}

export function edgeSet(g: SmallGraph): Set<string> {
  return new Set(g.edges.map(([a, b]) => `${a}>${b}`));
}

export const RUNS = { numRuns: 1000 } as const;
