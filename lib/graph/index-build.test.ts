import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphIndex } from './index-build';
import { mixedGraphArb, RUNS } from './test-arbitraries';

function succOf(index: GraphIndex, i: number): number[] {
  return Array.from(index.succ.subarray(index.succOffsets[i]!, index.succOffsets[i + 1]!));
}
function predOf(index: GraphIndex, i: number): number[] {
  return Array.from(index.pred.subarray(index.predOffsets[i]!, index.predOffsets[i + 1]!));
}

describe('buildGraphIndex', () => {
  it('indexes an empty plan', () => {
    const index = buildGraphIndex([]);
    expect(index.n).toBe(0);
    expect(index.edgeCount).toBe(0);
    expect(Array.from(index.succOffsets)).toEqual([0]);
    expect(Array.from(index.predOffsets)).toEqual([0]);
  });

  it('builds CSR adjacency with edges from prerequisite to dependent', () => {
    const index = buildGraphIndex([
      { task_id: 'fetch', dependencies: [] },
      { task_id: 'clean', dependencies: ['fetch'] },
      { task_id: 'summarise', dependencies: ['clean', 'fetch'] },
    ]);
    expect(index.ids).toEqual(['fetch', 'clean', 'summarise']);
    expect(index.idToIndex.get('summarise')).toBe(2);
    expect(index.edgeCount).toBe(3);
    expect(succOf(index, 0)).toEqual([1, 2]);
    expect(succOf(index, 1)).toEqual([2]);
    expect(predOf(index, 2)).toEqual([1, 0]);
    expect(index.missing).toEqual([]);
    expect(index.duplicates).toEqual([]);
    expect(index.selfLoops).toEqual([]);
  });

  it('records missing dependencies, duplicate ids and self-loops without making edges', () => {
    const index = buildGraphIndex([
      { task_id: 'a', dependencies: ['ghost', 'a', 'a'] },
      { task_id: 'b', dependencies: ['a', 'a', 'ghost'] },
      { task_id: 'a', dependencies: ['b'] },
      { task_id: 'b', dependencies: [] },
      { task_id: 'a', dependencies: [] },
    ]);
    expect(index.n).toBe(2);
    expect(index.ids).toEqual(['a', 'b']);
    expect(index.duplicates).toEqual(['a', 'b']);
    expect(index.selfLoops).toEqual([0]);
    expect(index.missing).toEqual([
      { task: 0, dependency: 'ghost' },
      { task: 1, dependency: 'ghost' },
    ]);
    // The later 'a' (depending on b) is ignored: first occurrence wins.
    expect(index.edgeCount).toBe(1);
    expect(succOf(index, 0)).toEqual([1]);
    expect(predOf(index, 0)).toEqual([]);
  });

  it('keeps the edge set, predecessor order and succ/pred symmetry on random plans', () => {
    fc.assert(
      fc.property(mixedGraphArb(), fc.boolean(), (g, repeat) => {
        // Repeating every dependency must not change the graph.
        const tasks = repeat
          ? g.tasks.map((t) => ({ ...t, dependencies: [...t.dependencies, ...t.dependencies] }))
          : g.tasks;
        const index = buildGraphIndex(tasks);
        expect(index.n).toBe(g.n);
        expect(index.edgeCount).toBe(g.edges.length);
        const fromSucc: string[] = [];
        const fromPred: string[] = [];
        for (let v = 0; v < index.n; v++) {
          for (const w of succOf(index, v)) fromSucc.push(`${v}>${w}`);
          for (const u of predOf(index, v)) fromPred.push(`${u}>${v}`);
          expect(predOf(index, v).map((u) => index.ids[u])).toEqual(g.tasks[v]!.dependencies);
        }
        const expected = g.edges.map(([a, b]) => `${a}>${b}`).sort();
        expect(fromSucc.sort()).toEqual(expected);
        expect(fromPred.sort()).toEqual(expected);
      }),
      RUNS,
    );
  });
});
