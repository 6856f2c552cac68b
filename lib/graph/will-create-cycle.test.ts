import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCycle } from './cycle';
import { buildGraphIndex } from './index-build';
import { dagArb, edgeSet, idOf, mixedGraphArb, reachMatrix, RUNS, type SmallGraph } from './test-arbitraries';
import { willCreateCycle } from './will-create-cycle';

function withEdge(g: SmallGraph, from: number, to: number) {
  return g.tasks.map((t, i) => (i === to ? { ...t, dependencies: [...t.dependencies, idOf(from)] } : t));
}

describe('willCreateCycle', () => {
  const index = buildGraphIndex([
    { task_id: 'Fetch', dependencies: [] },
    { task_id: 'Clean', dependencies: ['Fetch'] },
    { task_id: 'Summarise', dependencies: ['Clean'] },
    { task_id: 'Other', dependencies: [] },
  ]);

  it('returns the closed path [from, to, …, from]', () => {
    // Fetch would depend on Summarise, which already depends on Fetch.
    expect(willCreateCycle(index, 'Summarise', 'Fetch')).toEqual({
      cycle: ['Summarise', 'Fetch', 'Clean', 'Summarise'],
    });
    expect(willCreateCycle(index, 'Fetch', 'Fetch')).toEqual({ cycle: ['Fetch', 'Fetch'] });
  });

  it('accepts safe edges, including existing ones', () => {
    expect(willCreateCycle(index, 'Fetch', 'Summarise')).toBeNull();
    expect(willCreateCycle(index, 'Fetch', 'Clean')).toBeNull();
    expect(willCreateCycle(index, 'Other', 'Fetch')).toBeNull();
  });

  it('throws on unknown ids, naming the function', () => {
    expect(() => willCreateCycle(index, 'Nope', 'Fetch')).toThrow(/^willCreateCycle: unknown task id "Nope"/);
  });

  it('on DAGs, agrees with adding the edge and re-running findCycle', () => {
    fc.assert(
      fc.property(dagArb(), fc.nat(), fc.nat(), (g, a, b) => {
        fc.pre(g.n >= 2);
        const from = a % g.n;
        const to = b % g.n;
        fc.pre(from !== to);
        const verdict = willCreateCycle(buildGraphIndex(g.tasks), idOf(from), idOf(to));
        const after = findCycle(buildGraphIndex(withEdge(g, from, to)));
        expect(verdict !== null).toBe(after !== null);
      }),
      RUNS,
    );
  });

  it('returns a real closed path through the new edge on any graph', () => {
    fc.assert(
      fc.property(mixedGraphArb(), fc.nat(), fc.nat(), (g, a, b) => {
        fc.pre(g.n >= 1);
        const from = a % g.n;
        const to = b % g.n;
        const verdict = willCreateCycle(buildGraphIndex(g.tasks), idOf(from), idOf(to));
        const reach = reachMatrix(g);
        expect(verdict !== null).toBe(from === to || reach[to]![from]!);
        if (verdict === null) return;
        const { cycle } = verdict;
        expect(cycle[0]).toBe(idOf(from));
        expect(cycle[1]).toBe(idOf(to));
        expect(cycle[cycle.length - 1]).toBe(idOf(from));
        const inner = cycle.slice(0, -1);
        expect(new Set(inner).size).toBe(inner.length);
        const edges = edgeSet(g);
        edges.add(`${from}>${to}`);
        const nodes = cycle.map((id) => Number(id.slice('task-'.length)));
        for (let k = 0; k + 1 < nodes.length; k++) {
          expect(edges.has(`${nodes[k]}>${nodes[k + 1]}`)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
