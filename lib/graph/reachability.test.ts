import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex } from './index-build';
import { ancestors, descendants, isReachable, shortestPath } from './reachability';
import { edgeSet, mixedGraphArb, reachMatrix, RUNS } from './test-arbitraries';

describe('reachability', () => {
  const index = buildGraphIndex([
    { task_id: 'a', dependencies: [] },
    { task_id: 'b', dependencies: ['a'] },
    { task_id: 'c', dependencies: ['b'] },
    { task_id: 'x', dependencies: [] },
  ]);

  it('lists ancestors and descendants nearest first, without the node itself', () => {
    expect(ancestors(index, 2)).toEqual([1, 0]);
    expect(descendants(index, 0)).toEqual([1, 2]);
    expect(descendants(index, 3)).toEqual([]);
  });

  it('answers point queries', () => {
    expect(isReachable(index, 0, 2)).toBe(true);
    expect(isReachable(index, 2, 0)).toBe(false);
    expect(isReachable(index, 3, 3)).toBe(true);
    expect(shortestPath(index, 0, 2)).toEqual([0, 1, 2]);
  });

  it('names the function on a bad node index', () => {
    expect(() => ancestors(index, 9)).toThrow(/^ancestors: /);
    expect(() => isReachable(index, 0, -1)).toThrow(/^isReachable: /);
  });

  it('matches a brute-force reachability matrix', () => {
    fc.assert(
      fc.property(mixedGraphArb(), (g) => {
        const idx = buildGraphIndex(g.tasks);
        const reach = reachMatrix(g);
        const edges = edgeSet(g);
        // Compare whole rows at once: one expect per node keeps 1000 runs fast.
        for (let v = 0; v < g.n; v++) {
          const desc = new Set(descendants(idx, v));
          const anc = new Set(ancestors(idx, v));
          const all = Array.from({ length: g.n }, (_, w) => w);
          expect(all.map((w) => desc.has(w))).toEqual(all.map((w) => w !== v && reach[v]![w]!));
          expect(all.map((w) => anc.has(w))).toEqual(all.map((w) => w !== v && reach[w]![v]!));
        }
        if (g.n > 0) {
          const from = g.n - 1;
          const to = Math.floor(g.n / 2);
          expect(isReachable(idx, from, to)).toBe(from === to || reach[from]![to]!);
          const path = shortestPath(idx, from, to);
          if (path !== null && path.length > 1) {
            for (let k = 0; k + 1 < path.length; k++) expect(edges.has(`${path[k]}>${path[k + 1]}`)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });
});
