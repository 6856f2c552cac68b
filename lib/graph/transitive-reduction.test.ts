import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex } from './index-build';
import { dagArb, edgeSet, reachMatrix, RUNS, type SmallGraph } from './test-arbitraries';
import { redundantEdges } from './transitive-reduction';

describe('redundantEdges', () => {
  it('finds the shortcut in a chain with a skip edge', () => {
    const index = buildGraphIndex([
      { task_id: 'fetch', dependencies: [] },
      { task_id: 'clean', dependencies: ['fetch'] },
      { task_id: 'summarise', dependencies: ['fetch', 'clean'] },
    ]);
    expect(redundantEdges(index)).toEqual([{ from: 0, to: 2, via: 1 }]);
  });

  it('keeps a diamond intact', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: [] },
      { task_id: 'b', dependencies: ['a'] },
      { task_id: 'c', dependencies: ['a'] },
      { task_id: 'd', dependencies: ['b', 'c'] },
    ]);
    expect(redundantEdges(index)).toEqual([]);
  });

  it('throws on a cyclic graph, naming the function', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: ['b'] },
      { task_id: 'b', dependencies: ['a'] },
    ]);
    expect(() => redundantEdges(index)).toThrow(/^redundantEdges: /);
  });

  it('reports exactly the implied edges, and removing them all preserves reachability', () => {
    fc.assert(
      fc.property(dagArb(), (g) => {
        const found = redundantEdges(buildGraphIndex(g.tasks));
        const reach = reachMatrix(g);
        const edges = edgeSet(g);
        const reported = new Set(found.map((r) => `${r.from}>${r.to}`));
        expect(reported.size).toBe(found.length);
        for (const { from, to, via } of found) {
          expect(edges.has(`${from}>${to}`)).toBe(true);
          expect(via).not.toBe(from);
          expect(edges.has(`${via}>${to}`)).toBe(true);
          expect(reach[from]![via]).toBe(true);
        }
        // Completeness: every edge with an alternative path is reported.
        for (const [a, b] of g.edges) {
          const implied = g.edges.some(([w, t]) => t === b && w !== a && reach[a]![w]!);
          expect(reported.has(`${a}>${b}`)).toBe(implied);
        }
        const reduced: SmallGraph = {
          n: g.n,
          edges: g.edges.filter(([a, b]) => !reported.has(`${a}>${b}`)),
          tasks: [],
        };
        expect(reachMatrix(reduced)).toEqual(reach);
      }),
      RUNS,
    );
  });
});
