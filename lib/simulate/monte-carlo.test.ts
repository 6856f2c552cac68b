import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWfFormat } from '@/lib/formats/wfformat';
import { buildGraphIndex } from '@/lib/graph';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { MAX_MONTE_CARLO_TASK_RUNS, monteCarlo, monteCarloAsync, monteCarloBudgetProblem, type MonteCarloInput } from './monte-carlo';
import { schedule } from './schedule';

const wf = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
const n = wf.tasks.length;
const montage = {
  index: buildGraphIndex(wf.tasks),
  durations: Float64Array.from(wf.tasks, (t) => t.runtime_ms ?? 0),
  costs: Float64Array.from(wf.tasks, (_, i) => 0.001 * (1 + (i % 7))),
  types: Uint8Array.from(wf.tasks, (_, i) => i % 3),
  workers: 16,
  typeLimits: [undefined, 4],
};

// p = 0.0002 per task: about two runs in three of the 2,122-task plan complete.
const run = (extra: Partial<MonteCarloInput>) =>
  monteCarlo({ ...montage, failureProbability: 0.0002, runs: 50, seed: 1, ...extra });

describe('monteCarlo', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = run({ seed: 123 });
    expect(run({ seed: 123 })).toEqual(a);
    expect(run({ seed: 124 })).not.toEqual(a);
    expect(a.runs).toBe(50);
    expect(a.completedRuns + a.failedRuns).toBe(50);
    expect(a.completionRate).toBe(a.completedRuns / 50);
    expect(a.completedRuns).toBeGreaterThan(0);
    expect(a.failedRuns).toBeGreaterThan(0);
    const makespan = a.makespan!;
    expect(makespan.min).toBeLessThanOrEqual(makespan.p50);
    expect(makespan.p50).toBeLessThanOrEqual(makespan.p95);
    expect(makespan.p95).toBeLessThanOrEqual(makespan.max);
    expect(a.cost!.p50).toBeLessThanOrEqual(a.cost!.p95);
    expect(a.timeToFirstFailure!.p50).toBeLessThanOrEqual(a.timeToFirstFailure!.p95);
  });

  it('with p = 0 never fails and reports the plain makespan', () => {
    const plain = schedule(montage);
    const r = run({ failureProbability: 0, runs: 20 });
    expect(r).toEqual({
      runs: 20,
      completedRuns: 20,
      completionRate: 1,
      makespan: { p50: plain.makespanMs, p95: plain.makespanMs, min: plain.makespanMs, max: plain.makespanMs },
      cost: { p50: plain.totalCost, p95: plain.totalCost },
      failedRuns: 0,
      timeToFirstFailure: null,
      skippedMean: 0,
    });
  });

  it('reports a completed run exactly as the plain schedule, however likely failure is: failed runs never make it look faster', () => {
    const plain = schedule(montage);
    const r = run({ runs: 200 });
    expect(r.completedRuns).toBeGreaterThan(0);
    expect(r.makespan).toEqual({ p50: plain.makespanMs, p95: plain.makespanMs, min: plain.makespanMs, max: plain.makespanMs });
    expect(r.cost).toEqual({ p50: plain.totalCost, p95: plain.totalCost });
    expect(r.timeToFirstFailure!.p95).toBeLessThanOrEqual(plain.makespanMs);
  });

  it('with p = 1 fails every run: the sources fail and everything else is skipped; no completed-run figures', () => {
    const r = run({ failureProbability: 1, runs: 10 });
    expect(r).toMatchObject({ failedRuns: 10, completedRuns: 0, completionRate: 0, makespan: null, cost: null });
    const first = schedule({ ...montage, fails: new Uint8Array(n).fill(1) }).firstFailureMs!;
    expect(r.timeToFirstFailure).toEqual({ p50: first, p95: first });
    const sources = Array.from({ length: n }, (_, v) => montage.index.predOffsets[v + 1]! - montage.index.predOffsets[v]!).filter(
      (d) => d === 0,
    ).length;
    expect(r.skippedMean).toBe(n - sources);
  });

  it('applies alwaysFail in every run, on top of the random failures', () => {
    const alwaysFail = new Uint8Array(n);
    // A source of the montage graph with dependents.
    const source = Array.from({ length: n }, (_, v) => v).find(
      (v) => montage.index.predOffsets[v + 1] === montage.index.predOffsets[v] && montage.index.succOffsets[v + 1]! > montage.index.succOffsets[v]!,
    )!;
    alwaysFail[source] = 1;
    const fixed = schedule({ ...montage, fails: alwaysFail });
    const r = run({ failureProbability: 0, runs: 5, alwaysFail });
    expect(r.failedRuns).toBe(5);
    expect(r.completionRate).toBe(0);
    expect(r.skippedMean).toBe(fixed.skippedCount);
    expect(r.makespan).toBeNull();
    expect(r.timeToFirstFailure).toEqual({ p50: fixed.firstFailureMs, p95: fixed.firstFailureMs });
    expect(run({ alwaysFail }).failedRuns).toBe(50);
  });

  it("uses a task's own probability over the plan-wide one", () => {
    const own = new Float64Array(n).fill(NaN);
    const none = run({ failureProbability: 0, runs: 20, taskFailureProbability: own });
    expect(none.completionRate).toBe(1);
    own[0] = 1;
    expect(run({ failureProbability: 0, runs: 20, taskFailureProbability: own }).completionRate).toBe(0);
    // Every task's own 0 overrides a plan-wide certainty of failure.
    expect(run({ failureProbability: 1, runs: 5, taskFailureProbability: new Float64Array(n) }).completionRate).toBe(1);
    expect(() => run({ taskFailureProbability: new Float64Array(3) })).toThrow(/taskFailureProbability has 3 entries/);
    expect(() => run({ taskFailureProbability: new Float64Array(n).fill(2) })).toThrow(/failure probability of task 0/);
  });

  it('rejects invalid parameters', () => {
    expect(() => run({ failureProbability: 1.5 })).toThrow(/failureProbability/);
    expect(() => run({ failureProbability: NaN })).toThrow(/failureProbability/);
    expect(() => run({ runs: 0 })).toThrow(/runs must be an integer >= 1/);
    expect(() => run({ alwaysFail: new Uint8Array(3) })).toThrow(/alwaysFail has 3 entries/);
    expect(() => run({ seed: 0.5 })).toThrow(/seed/);
  });

  it('runs 200 simulations of the 2,122-task montage plan (its speed at 1,000 is measured by npm run bench)', () => {
    const r = monteCarlo({ ...montage, workers: 48, failureProbability: 0.0001, runs: 200, seed: 9 });
    expect(r.runs).toBe(200);
    expect(r.failedRuns).toBeGreaterThan(0);
    expect(r.completedRuns).toBeGreaterThan(0);
    expect(r.makespan!.p50).toBeLessThanOrEqual(r.makespan!.p95);
  });

  it('gives the same result in slices as in one go', async () => {
    const input = { ...montage, failureProbability: 0.02, runs: 40, seed: 9 };
    expect(await monteCarloAsync(input, 0)).toEqual(monteCarlo(input));
  });

  it('budgets runs × tasks', () => {
    expect(MAX_MONTE_CARLO_TASK_RUNS).toBe(2_000_000);
    expect(monteCarloBudgetProblem(100, 20_000)).toBeNull();
    expect(monteCarloBudgetProblem(10_000, 20_000)).toBe(
      '10,000 Monte Carlo runs of 20,000 tasks are 200,000,000 task-runs; the limit is 2,000,000 task-runs per dry run (at most 100 runs of this plan)',
    );
    expect(monteCarloBudgetProblem(10_000, 200)).toBeNull();
  });
});
