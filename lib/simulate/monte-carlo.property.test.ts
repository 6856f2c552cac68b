import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex } from '@/lib/graph';
import { dagArb } from '@/lib/graph/test-arbitraries';
import { monteCarlo } from './monte-carlo';
import { seededRandom } from './random';
import { schedule } from './schedule';

// Monte Carlo against a replay: the same seeded stream drawn task by task, each run
// scheduled on its own. What a completed run reports must not depend on the failed ones.

const caseArb = dagArb(20).chain((g) =>
  fc.record({
    g: fc.constant(g),
    durations: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }), fc.double({ min: 0, max: 1e4, noNaN: true })), { minLength: g.n, maxLength: g.n }),
    costs: fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: g.n, maxLength: g.n }),
    own: fc.array(fc.option(fc.constantFrom(0, 0.0001, 0.05, 0.5, 1), { nil: undefined }), { minLength: g.n, maxLength: g.n }),
    p: fc.constantFrom(0, 0.0001, 0.001, 0.1, 0.3, 1),
    workers: fc.integer({ min: 1, max: 5 }),
    limit: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    runs: fc.integer({ min: 1, max: 40 }),
    seed: fc.integer(),
  }),
);

const nearest = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

describe('monteCarlo: properties', () => {
  it('computes completed-run figures over completed runs only, first failures over failed runs, and repeats for a seed', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const n = c.g.n;
        const input = {
          index: buildGraphIndex(c.g.tasks),
          durations: Float64Array.from(c.durations),
          costs: Float64Array.from(c.costs),
          types: Uint8Array.from({ length: n }, (_, i) => i % 2),
          workers: c.workers,
          typeLimits: [c.limit],
          failureProbability: c.p,
          taskFailureProbability: Float64Array.from(c.own, (q) => (q === undefined ? NaN : q)),
          runs: c.runs,
          seed: c.seed,
        };
        const result = monteCarlo(input);
        expect(monteCarlo(input)).toEqual(result);

        const probability = c.own.map((q) => q ?? c.p);
        const random = seededRandom(c.seed);
        const completed: number[] = [];
        const costs: number[] = [];
        const firstFailures: number[] = [];
        for (let r = 0; r < c.runs; r++) {
          const fails = new Uint8Array(n);
          if (probability.some((q) => q > 0)) for (let i = 0; i < n; i++) if (random() < probability[i]!) fails[i] = 1;
          const one = schedule({ ...input, fails });
          if (one.failedCount === 0) {
            completed.push(one.makespanMs);
            costs.push(one.totalCost);
          } else firstFailures.push(one.firstFailureMs!);
        }
        expect(result.completedRuns).toBe(completed.length);
        expect(result.failedRuns).toBe(firstFailures.length);
        expect(result.completionRate).toBe(completed.length / c.runs);
        if (completed.length === 0) expect([result.makespan, result.cost]).toEqual([null, null]);
        else {
          // A completed run is the plain schedule: no failed run can pull its figures down.
          const plain = schedule(input);
          completed.sort((a, b) => a - b);
          costs.sort((a, b) => a - b);
          expect(result.makespan).toEqual({ p50: plain.makespanMs, p95: plain.makespanMs, min: plain.makespanMs, max: plain.makespanMs });
          expect(result.makespan).toEqual({ p50: nearest(completed, 0.5), p95: nearest(completed, 0.95), min: completed[0], max: completed.at(-1) });
          expect(result.cost).toEqual({ p50: nearest(costs, 0.5), p95: nearest(costs, 0.95) });
        }
        firstFailures.sort((a, b) => a - b);
        expect(result.timeToFirstFailure).toEqual(firstFailures.length ? { p50: nearest(firstFailures, 0.5), p95: nearest(firstFailures, 0.95) } : null);
      }),
      { numRuns: 300 },
    );
  });
});
