/**
 * Monte Carlo mode of the dry run: every task fails independently with its probability
 * (one for all tasks, or a task's own), plus the tasks the operator marked to always
 * fail; the plan is scheduled N times.
 *
 * What it reports first is how often the job completes (no task failed). The makespan and
 * cost percentiles are over the completed runs only: a failed run stops early and costs
 * less, so mixing it in would make failure look fast and cheap. Failed runs are described
 * by when their first failure happens.
 *
 * The run-independent work (order, ranks, critical path) is done once by
 * createScheduler, and every run reuses the same typed-array buffers, so a run
 * costs one O((T + E) log T) scheduling pass and T random draws.
 *
 * Deterministic: the same input and seed give the same result. Each run draws one
 * number per task, in task index order, from one seeded stream (none when every
 * probability is 0).
 */

import { seededRandom } from './random';
import { createScheduler, type ScheduleInput } from './schedule';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';

export interface MonteCarloInput extends Omit<ScheduleInput, 'fails'> {
  /** Probability in [0, 1] that a task fails when it runs, independently per task and run. */
  readonly failureProbability: number;
  /** A probability per task (by node index) used instead of failureProbability; NaN = none of its own. */
  readonly taskFailureProbability?: Float64Array;
  /** Number of simulated runs (integer >= 1). */
  readonly runs: number;
  /** Integer seed of the random stream (low 32 bits used). */
  readonly seed: number;
  /** Non-zero = the task fails in every run. */
  readonly alwaysFail?: Uint8Array;
}

export interface Percentiles {
  p50: number;
  p95: number;
}

export interface MonteCarloResult {
  runs: number;
  /** Runs in which no task failed. */
  completedRuns: number;
  /** completedRuns / runs. */
  completionRate: number;
  /** Makespan percentiles (nearest rank: always an observed value) and extremes of the completed runs, in ms; null when none completed. */
  makespan: (Percentiles & { min: number; max: number }) | null;
  /** Total cost percentiles (nearest rank) of the completed runs; null when none completed. */
  cost: Percentiles | null;
  /** Runs in which at least one task failed. */
  failedRuns: number;
  /** When the first task failed, over the failed runs (nearest rank), in ms; null when none failed. */
  timeToFirstFailure: Percentiles | null;
  /** Mean number of skipped tasks per run. */
  skippedMean: number;
}

/** Nearest-rank percentile of an ascending array: the smallest value with at least q of the data at or below it. */
function percentile(sorted: Float64Array, q: number): number {
  const k = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[k]!;
}

/**
 * The most task-runs (runs × tasks) one Monte Carlo request may ask for. 2,000,000 is
 * 100 runs of a 20,000-task plan, or 1,000 runs of 2,000 tasks: a few hundred ms of
 * scheduling on a 2-core machine.
 */
export const MAX_MONTE_CARLO_TASK_RUNS = 2_000_000;

/** Why `runs` runs of `tasks` tasks are over the budget, or null when they are within it. */
export function monteCarloBudgetProblem(runs: number, tasks: number): string | null {
  const taskRuns = runs * tasks;
  if (taskRuns <= MAX_MONTE_CARLO_TASK_RUNS) return null;
  const most = Math.max(1, Math.floor(MAX_MONTE_CARLO_TASK_RUNS / Math.max(1, tasks)));
  return (
    `${runs.toLocaleString('en')} Monte Carlo runs of ${tasks.toLocaleString('en')} tasks are ${taskRuns.toLocaleString('en')} task-runs; ` +
    `the limit is ${MAX_MONTE_CARLO_TASK_RUNS.toLocaleString('en')} task-runs per dry run (at most ${most.toLocaleString('en')} runs of this plan)`
  );
}

interface MonteCarloState {
  step(runs: number): void;
  done(): boolean;
  result(): MonteCarloResult;
}

function startMonteCarlo(input: MonteCarloInput): MonteCarloState {
  const { failureProbability: p, taskFailureProbability, runs, seed, alwaysFail } = input;
  if (!(p >= 0 && p <= 1)) {
    throw new Error(`monteCarlo: failureProbability must be in [0, 1], got ${String(p)}`);
  }
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`monteCarlo: runs must be an integer >= 1, got ${String(runs)}`);
  }
  const scheduler = createScheduler(input);
  const n = scheduler.n;
  if (alwaysFail !== undefined && alwaysFail.length !== n) {
    throw new Error(`monteCarlo: alwaysFail has ${alwaysFail.length} entries but the graph has ${n} tasks`);
  }
  const probability = new Float64Array(n).fill(p);
  if (taskFailureProbability !== undefined) {
    if (taskFailureProbability.length !== n) {
      throw new Error(`monteCarlo: taskFailureProbability has ${taskFailureProbability.length} entries but the graph has ${n} tasks`);
    }
    taskFailureProbability.forEach((q, i) => {
      if (Number.isNaN(q)) return;
      if (!(q >= 0 && q <= 1)) throw new Error(`monteCarlo: the failure probability of task ${i} must be in [0, 1], got ${String(q)}`);
      probability[i] = q;
    });
  }
  // All zero draws nothing: no draw could fall below a probability of 0.
  const draws = probability.some((q) => q > 0);
  const random = seededRandom(seed);
  const fails = new Uint8Array(n);
  const makespans = new Float64Array(runs);
  const costs = new Float64Array(runs);
  const firstFailures = new Float64Array(runs);
  let completedRuns = 0;
  let failedRuns = 0;
  let skippedTotal = 0;
  let r = 0;

  return {
    step(count: number) {
      const end = Math.min(runs, r + count);
      for (; r < end; r++) {
        if (alwaysFail !== undefined) fails.set(alwaysFail);
        else fails.fill(0);
        if (draws) {
          for (let i = 0; i < n; i++) if (random() < probability[i]!) fails[i] = 1;
        }
        const result = scheduler.run(fails);
        if (result.firstFailureMs === null) {
          makespans[completedRuns] = result.makespanMs;
          costs[completedRuns] = result.totalCost;
          completedRuns++;
        } else {
          firstFailures[failedRuns] = result.firstFailureMs;
          failedRuns++;
        }
        skippedTotal += result.skippedCount;
      }
    },
    done: () => r >= runs,
    result() {
      const completed = makespans.subarray(0, completedRuns).sort();
      const completedCosts = costs.subarray(0, completedRuns).sort();
      const failed = firstFailures.subarray(0, failedRuns).sort();
      const spread = (sorted: Float64Array): Percentiles => ({ p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) });
      return {
        runs,
        completedRuns,
        completionRate: completedRuns / runs,
        makespan: completedRuns ? { ...spread(completed), min: completed[0]!, max: completed[completedRuns - 1]! } : null,
        cost: completedRuns ? spread(completedCosts) : null,
        failedRuns,
        timeToFirstFailure: failedRuns ? spread(failed) : null,
        skippedMean: skippedTotal / runs,
      };
    },
  };
}

/** All runs at once, on the caller's thread (scripts, tests). */
export function monteCarlo(input: MonteCarloInput): MonteCarloResult {
  const state = startMonteCarlo(input);
  state.step(input.runs);
  return state.result();
}

/**
 * The same runs and the same result as monteCarlo, but yielding to the event loop
 * (setImmediate) whenever a slice of runs has taken `sliceMs`, so a server answers other
 * requests (health checks included) while a large Monte Carlo is under way.
 */
export async function monteCarloAsync(input: MonteCarloInput, sliceMs = 25): Promise<MonteCarloResult> {
  const state = startMonteCarlo(input);
  let batch = 1;
  while (!state.done()) {
    const started = performance.now();
    let ran = 0;
    do {
      state.step(batch);
      ran += batch;
    } while (!state.done() && performance.now() - started < sliceMs);
    // Size the next slice's batches from this one, so the clock is read a few times a slice.
    const elapsed = performance.now() - started;
    batch = Math.max(1, Math.floor((ran * sliceMs) / Math.max(1, elapsed) / 4));
    if (!state.done()) await yieldToEventLoop();
  }
  return state.result();
}
