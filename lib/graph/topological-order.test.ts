import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCycle } from './cycle';
import { buildGraphIndex } from './index-build';
import { dagArb, isAcyclic, mixedGraphArb, RUNS } from './test-arbitraries';
import { topologicalOrder, topologicalPositions } from './topological-order';

describe('topologicalOrder', () => {
  it('orders a diamond', () => {
    const index = buildGraphIndex([
      { task_id: 'd', dependencies: ['b', 'c'] },
      { task_id: 'b', dependencies: ['a'] },
      { task_id: 'c', dependencies: ['a'] },
      { task_id: 'a', dependencies: [] },
    ]);
    const order = topologicalOrder(index);
    expect(order && Array.from(order, (i) => index.ids[i])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('returns null on a cycle', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: ['b'] },
      { task_id: 'b', dependencies: ['a'] },
      { task_id: 'c', dependencies: [] },
    ]);
    expect(topologicalOrder(index)).toBeNull();
  });

  it('is a permutation that respects every edge on random DAGs', () => {
    fc.assert(
      fc.property(dagArb(), (g) => {
        const order = topologicalOrder(buildGraphIndex(g.tasks));
        expect(order).not.toBeNull();
        expect(Array.from(order!).sort((x, y) => x - y)).toEqual(Array.from({ length: g.n }, (_, i) => i));
        const pos = topologicalPositions(order!);
        for (const [a, b] of g.edges) expect(pos[a]!).toBeLessThan(pos[b]!);
      }),
      RUNS,
    );
  });

  it('succeeds exactly when the graph is acyclic, and exactly when findCycle finds nothing', () => {
    fc.assert(
      fc.property(mixedGraphArb(), (g) => {
        const index = buildGraphIndex(g.tasks);
        const order = topologicalOrder(index);
        expect(order !== null).toBe(isAcyclic(g));
        expect(findCycle(index) === null).toBe(order !== null);
      }),
      RUNS,
    );
  });
});
