import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { criticalPath } from './critical-path';
import { buildGraphIndex } from './index-build';
import { dagArb, edgeSet, RUNS, type SmallGraph } from './test-arbitraries';

/** Sum of durations of every source-to-any path, by exhaustive enumeration. */
function allPathSums(g: SmallGraph, dur: number[]): number[] {
  const succ: number[][] = Array.from({ length: g.n }, () => []);
  const hasPred = new Array<boolean>(g.n).fill(false);
  for (const [a, b] of g.edges) {
    succ[a]!.push(b);
    hasPred[b] = true;
  }
  const sums: number[] = [];
  const walk = (v: number, acc: number): void => {
    const total = acc + dur[v]!;
    sums.push(total);
    for (const w of succ[v]!) walk(w, total);
  };
  for (let v = 0; v < g.n; v++) if (!hasPred[v]) walk(v, 0);
  return sums;
}

describe('criticalPath', () => {
  it('follows the longest chain by duration, not by task count', () => {
    const index = buildGraphIndex([
      { task_id: 'fetch', dependencies: [] },
      { task_id: 'quick1', dependencies: ['fetch'] },
      { task_id: 'quick2', dependencies: ['quick1'] },
      { task_id: 'slow', dependencies: ['fetch'] },
      { task_id: 'report', dependencies: ['quick2', 'slow'] },
    ]);
    const dur = [1, 1, 1, 10, 2];
    expect(criticalPath(index, (i) => dur[i]!)).toEqual({ length: 13, path: [0, 3, 4] });
  });

  it('handles empty and cyclic graphs', () => {
    expect(criticalPath(buildGraphIndex([]), () => 1)).toEqual({ length: 0, path: [] });
    const cyclic = buildGraphIndex([
      { task_id: 'a', dependencies: ['b'] },
      { task_id: 'b', dependencies: ['a'] },
    ]);
    expect(criticalPath(cyclic, () => 1)).toBeNull();
  });

  it('rejects negative or non-finite durations, naming the function and task', () => {
    const index = buildGraphIndex([{ task_id: 'a', dependencies: [] }]);
    expect(() => criticalPath(index, () => -1)).toThrow(/criticalPath: .*"a"/);
    expect(() => criticalPath(index, () => Number.NaN)).toThrow(/criticalPath/);
  });

  it('is a real path whose length is the maximum of every path sum', () => {
    fc.assert(
      fc.property(
        dagArb(12),
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 12, maxLength: 12 }),
        (g, dur) => {
          const result = criticalPath(buildGraphIndex(g.tasks), (i) => dur[i]!);
          expect(result).not.toBeNull();
          const { length, path } = result!;
          const sums = allPathSums(g, dur);
          for (const s of sums) expect(length).toBeGreaterThanOrEqual(s);
          expect(length).toBe(g.n === 0 ? 0 : Math.max(...sums));
          const edges = edgeSet(g);
          for (let k = 0; k + 1 < path.length; k++) expect(edges.has(`${path[k]}>${path[k + 1]}`)).toBe(true);
          expect(path.reduce((s, v) => s + dur[v]!, 0)).toBe(length);
        },
      ),
      RUNS,
    );
  });
});
