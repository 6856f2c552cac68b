import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphTaskInput } from '@/lib/graph';
import { dagArb } from '@/lib/graph/test-arbitraries';
import type { SubGraph } from '@/lib/plan';
import { schedule } from '@/lib/simulate/schedule';
import { scheduleSubgraphs, subgraphMakespan } from './subgraph-schedule';

function plan(spec: Record<string, string[]>): GraphTaskInput[] {
  return Object.entries(spec).map(([task_id, dependencies]) => ({ task_id, dependencies }));
}
const sg = (subgraph_id: string, task_ids: string[], depends_on: string[] = []): SubGraph => ({ subgraph_id, task_ids, depends_on });

// a → b → c, a → d
const TASKS = plan({ a: [], b: ['a'], c: ['b'], d: ['a'] });
const INDEX = buildGraphIndex(TASKS);
const DURATIONS = Float64Array.from([1, 2, 3, 4]);

describe('scheduleSubgraphs', () => {
  it('runs each subgraph as one dispatch lasting the sum of its tasks', () => {
    const grouping = [sg('s1', ['a']), sg('s2', ['b', 'c'], ['s1']), sg('s3', ['d'], ['s1'])];
    const { durations, result, index } = scheduleSubgraphs(INDEX, DURATIONS, grouping, 2);
    expect([...durations]).toEqual([1, 5, 4]);
    expect(index.ids).toEqual(['s1', 's2', 's3']);
    expect([...result.start]).toEqual([0, 1, 1]);
    expect(result.makespanMs).toBe(6);
    expect(subgraphMakespan(INDEX, DURATIONS, grouping, 1)).toBe(10);
    // One subgraph for everything: no parallelism left.
    expect(subgraphMakespan(INDEX, DURATIONS, [sg('all', ['a', 'b', 'c', 'd'])], 4)).toBe(10);
  });

  it('refuses groupings it cannot schedule meaningfully', () => {
    expect(() => subgraphMakespan(INDEX, DURATIONS, [sg('s', ['a', 'b', 'c', 'zz'])], 1)).toThrow(/"zz", which is not a task/);
    expect(() => subgraphMakespan(INDEX, DURATIONS, [sg('s', ['a']), sg('s', ['b', 'c', 'd'])], 1)).toThrow(/"s" is used more than once/);
    expect(() => subgraphMakespan(INDEX, DURATIONS, [sg('s', ['a', 'b', 'c', 'd'], ['t'])], 1)).toThrow(/"t", which is not a subgraph/);
    expect(() => subgraphMakespan(INDEX, DURATIONS, [sg('s', ['a', 'b', 'c', 'd'], ['s'])], 1)).toThrow(/depends on itself/);
    expect(() => subgraphMakespan(INDEX, DURATIONS, [sg('s', ['a', 'c'], ['t']), sg('t', ['b', 'd'], ['s'])], 1)).toThrow(/dependency cycle/);
    expect(() => subgraphMakespan(INDEX, new Float64Array(2), [], 1)).toThrow(/durations has 2 entries/);
  });

  it('one task per subgraph, in plan order, reproduces the task-level dry run exactly', () => {
    fc.assert(
      fc.property(
        dagArb(25).chain((g) =>
          fc.record({
            g: fc.constant(g),
            durations: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 1e4, noNaN: true })), {
              minLength: g.n,
              maxLength: g.n,
            }),
            workers: fc.integer({ min: 1, max: 8 }),
          }),
        ),
        ({ g, durations, workers }) => {
          const index = buildGraphIndex(g.tasks);
          const d = Float64Array.from(durations);
          const singletons = g.tasks.map((t, i) => sg(`s${i}`, [t.task_id], t.dependencies.map((dep) => `s${index.idToIndex.get(dep)}`)));
          const grouped = scheduleSubgraphs(index, d, singletons, workers).result;
          const tasks = schedule({ index, durations: d, costs: new Float64Array(g.n), types: new Uint8Array(g.n), workers });
          expect(grouped.makespanMs).toBe(tasks.makespanMs);
          expect([...grouped.start]).toEqual([...tasks.start]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
