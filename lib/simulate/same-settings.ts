import type { DryRunOptions } from './dry-run';

// Two dry runs' figures are compared only when they were asked the same question: the same
// workers, limits, failures, probabilities, runs and seed. Options are compared as they
// act, not as they were spelled: defaults filled in, ids sorted, and a task's own failure
// probability dropped when it equals the plan-wide one.

type Settings = Pick<DryRunOptions, 'workers' | 'limits' | 'fail_task_ids' | 'failure_probability' | 'failure_probability_overrides' | 'runs' | 'seed'>;

function canonical(options: Settings): string {
  const probability = options.failure_probability ?? 0;
  const limits = Object.entries(options.limits ?? {})
    .filter(([, limit]) => limit !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const overrides = Object.entries(options.failure_probability_overrides ?? {})
    .filter(([, q]) => q !== probability)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify({
    workers: options.workers,
    limits,
    fail: [...new Set(options.fail_task_ids ?? [])].sort(),
    probability,
    overrides,
    runs: options.runs ?? 1,
    seed: options.seed ?? 1,
  });
}

/** Whether two dry runs' options make the same simulation. */
export function sameSettings(a: Settings, b: Settings): boolean {
  return canonical(a) === canonical(b);
}
