import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex } from './index-build';
import { anyGraphArb, dagArb, isAcyclic, RUNS } from './test-arbitraries';
import { topologicalOrder } from './topological-order';
import { waveLevels, waves } from './waves';

describe('waves', () => {
  it('groups tasks that can run together', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: [] },
      { task_id: 'b', dependencies: [] },
      { task_id: 'c', dependencies: ['a'] },
      { task_id: 'd', dependencies: ['a', 'c'] },
      { task_id: 'e', dependencies: ['b'] },
    ]);
    expect(waves(index)?.map((w) => w.map((i) => index.ids[i]))).toEqual([['a', 'b'], ['c', 'e'], ['d']]);
    expect(waves(buildGraphIndex([]))).toEqual([]);
  });

  it('returns null on a cycle', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: ['b'] },
      { task_id: 'b', dependencies: ['a'] },
    ]);
    expect(waves(index)).toBeNull();
    expect(waveLevels(index)).toBeNull();
  });

  it('puts each task one wave after its latest prerequisite (longest path from a source)', () => {
    fc.assert(
      fc.property(dagArb(), (g) => {
        const index = buildGraphIndex(g.tasks);
        const order = topologicalOrder(index)!;
        const level = waveLevels(index, order)!;
        const preds: number[][] = Array.from({ length: g.n }, () => []);
        for (const [a, b] of g.edges) preds[b]!.push(a);
        for (let v = 0; v < g.n; v++) {
          const expected = preds[v]!.length === 0 ? 0 : Math.max(...preds[v]!.map((u) => level[u]! + 1));
          expect(level[v]).toBe(expected);
        }
        const grouped = waves(index, order)!;
        expect(grouped.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: g.n }, (_, i) => i));
        grouped.forEach((wave, k) => {
          expect(wave.length).toBeGreaterThan(0);
          for (const v of wave) expect(level[v]).toBe(k);
        });
      }),
      RUNS,
    );
  });

  it('agrees with acyclicity on arbitrary graphs', () => {
    fc.assert(
      fc.property(anyGraphArb(), (g) => {
        expect(waves(buildGraphIndex(g.tasks)) !== null).toBe(isAcyclic(g));
      }),
      RUNS,
    );
  });
});
