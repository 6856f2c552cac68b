import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCycle } from './cycle';
import { buildGraphIndex } from './index-build';
import { edgeSet, idOf, mixedGraphArb, RUNS } from './test-arbitraries';

describe('findCycle', () => {
  it('returns null for a DAG', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: [] },
      { task_id: 'b', dependencies: ['a'] },
    ]);
    expect(findCycle(index)).toBeNull();
  });

  it('returns the cycle in edge order', () => {
    // Edges: fetch → clean → summarise → fetch.
    const index = buildGraphIndex([
      { task_id: 'fetch', dependencies: ['summarise'] },
      { task_id: 'clean', dependencies: ['fetch'] },
      { task_id: 'summarise', dependencies: ['clean'] },
      { task_id: 'report', dependencies: ['summarise'] },
    ]);
    expect(findCycle(index)).toEqual(['fetch', 'clean', 'summarise']);
  });

  it('ignores self-dependencies, which the index reports separately', () => {
    const index = buildGraphIndex([{ task_id: 'a', dependencies: ['a'] }]);
    expect(findCycle(index)).toBeNull();
    expect(index.selfLoops).toEqual([0]);
  });

  it('handles a 100k-long chain closed into a cycle without recursion', () => {
    const n = 100_000;
    const tasks = Array.from({ length: n }, (_, i) => ({
      task_id: `t${i}`,
      dependencies: [`t${(i + n - 1) % n}`],
    }));
    const cycle = findCycle(buildGraphIndex(tasks));
    expect(cycle).toHaveLength(n);
    expect(cycle![0]).toBe('t0');
    expect(cycle![n - 1]).toBe(`t${n - 1}`);
    tasks[0] = { task_id: 't0', dependencies: [] };
    expect(findCycle(buildGraphIndex(tasks))).toBeNull();
  });

  it('reports a real cycle: distinct ids, every consecutive and the closing pair are edges', () => {
    fc.assert(
      fc.property(mixedGraphArb(), (g) => {
        const cycle = findCycle(buildGraphIndex(g.tasks));
        if (cycle === null) return;
        const edges = edgeSet(g);
        const nodes = cycle.map((id) => Number(id.slice('task-'.length)));
        expect(cycle).toEqual(nodes.map(idOf));
        expect(new Set(nodes).size).toBe(nodes.length);
        expect(nodes.length).toBeGreaterThanOrEqual(2);
        for (let k = 0; k < nodes.length; k++) {
          expect(edges.has(`${nodes[k]}>${nodes[(k + 1) % nodes.length]}`)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
