import { z } from 'zod';
import { buildGraphIndex, topologicalOrder } from '@/lib/graph';
import { utf8Bytes, type TaskData } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { simulateDataFlow, type ConvertorRunner, type Finding } from './data-flow';
import { MAX_MONTE_CARLO_TASK_RUNS, monteCarloAsync, monteCarloBudgetProblem } from './monte-carlo';
import { TASK_SKIPPED, schedule } from './schedule';
import { TYPE_CODES, estimateTasks } from './task-estimates';
import { DRY_RUN_DATA_LIMITS } from './dry-run-limits';

// A dry run: when each task would run on P workers, what data would flow, what it would
// cost, and what would be skipped if some tasks failed. Pure for a given seed, apart from
// convertor code, which runs in the caller's sandbox.

const TypeLimits = z.partialRecord(z.enum(TYPE_CODES), z.number().int().min(1).max(10_000));

/** Per-task failure probabilities one request may set (as many as a plan may have tasks). */
export const MAX_FAILURE_PROBABILITY_OVERRIDES = 20_000;

export const DryRunOptions = z.strictObject({
  workers: z.number().int().min(1, 'At least one worker').max(10_000),
  limits: TypeLimits.optional(),
  fail_task_ids: z.array(z.string()).max(20_000).optional(),
  /** Any value in [0, 1]: 0.0001 is a likely figure for one task of a 2,000-task plan. */
  failure_probability: z.number().min(0).max(1).optional(),
  /** A task's own failure probability, by task id, instead of failure_probability; unknown ids are refused (400). */
  failure_probability_overrides: z
    .record(z.string().max(1_000), z.number().min(0, 'A failure probability is at least 0').max(1, 'A failure probability is at most 1'))
    .refine((overrides) => Object.keys(overrides).length <= MAX_FAILURE_PROBABILITY_OVERRIDES, {
      message: `At most ${MAX_FAILURE_PROBABILITY_OVERRIDES.toLocaleString('en')} per-task failure probabilities`,
    })
    .optional(),
  /** Runs × tasks is also capped, at MAX_MONTE_CARLO_TASK_RUNS (a 400 naming the budget). */
  runs: z.number().int().min(1).max(10_000).optional(),
  seed: z.number().int().optional(),
});
export type DryRunOptions = z.infer<typeof DryRunOptions>;

const STATUS = ['ran', 'failed', 'skipped'] as const;
export type TaskRunStatus = (typeof STATUS)[number];

export interface TaskRun {
  task_id: string;
  type: string;
  worker: number | null;
  start_ms: number;
  end_ms: number;
  status: TaskRunStatus;
  resolved_input: unknown;
  mock_output: unknown;
}

export interface Percentiles {
  p50: number;
  p95: number;
}

export interface MonteCarloSummary {
  runs: number;
  failure_probability: number;
  /** How many tasks had a probability of their own. */
  failure_probability_overrides?: number;
  /** Runs in which no task failed; absent from dry runs stored before it was reported. */
  completed_runs?: number;
  /** completed_runs / runs: what the headline says first. */
  completion_rate?: number;
  /** Over the completed runs only; null when none completed. */
  makespan_ms: (Percentiles & { min: number; max: number }) | null;
  /** Over the completed runs only; null when none completed or a task's cost is unknown. */
  cost_usd: Percentiles | null;
  failed_runs: number;
  /** When the first task failed, over the failed runs; null when none failed. */
  time_to_first_failure_ms?: Percentiles | null;
  skipped_mean: number;
}

export interface DryRunResult {
  workers: number;
  limits: Partial<Record<string, number>>;
  seed: number;
  tasks: TaskRun[];
  makespan_ms: number;
  /** Counts only the tasks that run in this schedule, so it is <= makespan_ms. */
  lower_bound_ms: number;
  /** The bound of the whole plan, failures ignored (equal to lower_bound_ms when nothing fails). */
  plan_lower_bound_ms?: number;
  critical_path: string[];
  total_work_ms: number;
  /** Null when a task that runs has no cost estimate (a cost_unknown finding says which). */
  total_cost_usd: number | null;
  peak_parallelism: number;
  utilisation: number;
  worker_utilisation: number[];
  assumptions: string[];
  findings: Finding[];
  failed_task_ids: string[];
  skipped_task_ids: string[];
  monte_carlo: null | MonteCarloSummary;
}

export class DryRunError extends Error {}
/** The options, not the plan, are at fault (a 400). */
export class DryRunOptionsError extends DryRunError {}
/** The request asks for more work than one dry run may do (a 400). */
export class DryRunLimitError extends DryRunOptionsError {}

export { MAX_MONTE_CARLO_TASK_RUNS };

export { DRY_RUN_DATA_LIMITS };

function jsonBytes(value: unknown): number {
  if (value === null || value === undefined) return 0;
  const text = JSON.stringify(value);
  return text === undefined ? 0 : utf8Bytes(text);
}

/** Keeps the tasks' data within DRY_RUN_DATA_LIMITS; returns what was left out, for the assumptions. */
function boundTaskData(runs: TaskRun[]): string[] {
  const { maxTaskValueBytes, maxTaskDataBytes } = DRY_RUN_DATA_LIMITS;
  let total = 0;
  let tooBig = 0;
  let overBudget = 0;
  for (const run of runs) {
    for (const key of ['resolved_input', 'mock_output'] as const) {
      if (run[key] === null || run[key] === undefined) continue;
      if (total >= maxTaskDataBytes) {
        run[key] = null;
        overBudget += 1;
        continue;
      }
      const bytes = jsonBytes(run[key]);
      if (bytes > maxTaskValueBytes) {
        run[key] = null;
        tooBig += 1;
      } else if (total + bytes > maxTaskDataBytes) {
        run[key] = null;
        overBudget += 1;
        total = maxTaskDataBytes;
      } else {
        total += bytes;
      }
    }
  }
  const notes: string[] = [];
  const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} kB`;
  if (tooBig) notes.push(`${tooBig.toLocaleString('en')} resolved inputs or mock outputs over ${kb(maxTaskValueBytes)} each are not kept (null)`);
  if (overBudget) notes.push(`resolved inputs and mock outputs are kept up to ${kb(maxTaskDataBytes)} per dry run; ${overBudget.toLocaleString('en')} more are not kept (null)`);
  return notes;
}

function boundFindings(findings: Finding[]): { findings: Finding[]; notes: string[] } {
  const { maxFindings, maxFindingChars } = DRY_RUN_DATA_LIMITS;
  const kept = findings.slice(0, maxFindings).map((f) => (f.message.length > maxFindingChars ? { ...f, message: `${f.message.slice(0, maxFindingChars)}…` } : f));
  const notes = findings.length > maxFindings ? [`${(findings.length - maxFindings).toLocaleString('en')} more findings are not listed (the first ${maxFindings.toLocaleString('en')} are)`] : [];
  return { findings: kept, notes };
}

const quoted = (ids: readonly string[]) => ids.slice(0, 5).map((id) => `"${id.length > 60 ? `${id.slice(0, 60)}…` : id}"`).join(', ') + (ids.length > 5 ? ` and ${(ids.length - 5).toLocaleString('en')} more` : '');

/** Every figure is a finite number by construction (estimates are bounded); this says so loudly if not. */
function checkFinite(figures: Record<string, number>): void {
  for (const [name, value] of Object.entries(figures)) {
    if (!Number.isFinite(value)) throw new Error(`dryRun: internal error, ${name} is ${String(value)}`);
  }
}

export async function dryRun(plan: Pick<TaskData, 'planned_tasks'>, registry: Registry, options: DryRunOptions, runConvertor?: ConvertorRunner): Promise<DryRunResult> {
  const tasks = plan.planned_tasks;
  const index = buildGraphIndex(tasks);
  const order = topologicalOrder(index);
  if (!order) throw new DryRunError('The plan has a cycle; a dry run needs a DAG. Fix the cycle the issues panel names first.');
  if (index.duplicates.length) throw new DryRunError(`Task id "${index.duplicates[0]}" is used twice; a dry run needs unique task ids`);
  if (index.missing.length) throw new DryRunError(`Task "${index.ids[index.missing[0].task]}" depends on "${index.missing[0].dependency}", which is not in the plan`);
  const unknown = (options.fail_task_ids ?? []).filter((id) => !index.idToIndex.has(id));
  if (unknown.length) throw new DryRunOptionsError(`No task ${quoted(unknown)} in the plan to fail`);
  const overrides = Object.entries(options.failure_probability_overrides ?? {});
  const unknownOverrides = overrides.filter(([id]) => !index.idToIndex.has(id)).map(([id]) => id);
  if (unknownOverrides.length) throw new DryRunOptionsError(`failure_probability_overrides: no task ${quoted(unknownOverrides)} in the plan`);
  const runs = options.runs ?? 1;
  const probability = options.failure_probability ?? 0;
  const wantsMonteCarlo = runs > 1 || probability > 0 || overrides.some(([, q]) => q > 0);
  const budget = wantsMonteCarlo ? monteCarloBudgetProblem(runs, tasks.length) : null;
  if (budget) throw new DryRunLimitError(budget);

  const estimates = estimateTasks(tasks, registry);
  const { durations, costs, types } = estimates;
  const typeLimits = TYPE_CODES.map((type) => options.limits?.[type]);
  const fails = new Uint8Array(tasks.length);
  for (const id of options.fail_task_ids ?? []) fails[index.idToIndex.get(id)!] = 1;
  const seed = options.seed ?? 1;

  const result = schedule({ index, durations, costs, types, workers: options.workers, typeLimits, fails });
  // The findings listed are the first maxFindings of the estimates' and the flow's (boundFindings).
  const listedFlowFindings = Math.max(0, DRY_RUN_DATA_LIMITS.maxFindings - estimates.findings.length);
  const flow = await simulateDataFlow(tasks, index, order, (i) => result.status[i] === 0, registry, runConvertor, listedFlowFindings);

  const busy = new Float64Array(options.workers);
  tasks.forEach((_, i) => {
    if (result.worker[i] >= 0) busy[result.worker[i]] += result.end[i] - result.start[i];
  });
  let taskProbability: Float64Array | undefined;
  if (overrides.length) {
    taskProbability = new Float64Array(tasks.length).fill(NaN);
    for (const [id, q] of overrides) taskProbability[index.idToIndex.get(id)!] = q;
  }
  const carlo = wantsMonteCarlo
    ? await monteCarloAsync({ index, durations, costs, types, workers: options.workers, typeLimits, failureProbability: probability, taskFailureProbability: taskProbability, runs, seed, alwaysFail: fails })
    : null;

  // A task with no cost estimate makes every total it is part of unknown, never $0.
  const unknownRun = estimates.costUnknown.filter((i) => result.status[i] !== TASK_SKIPPED);
  const costKnown = estimates.costUnknown.length === 0;
  const costFindings: Finding[] = [];
  if (unknownRun.length) {
    const ids = unknownRun.map((i) => tasks[i].task_id);
    costFindings.push({
      task_id: ids[0],
      code: 'cost_unknown',
      message: `Total cost unknown: ${ids.length.toLocaleString('en')} of the ${tasks.length.toLocaleString('en')} tasks ${ids.length === 1 ? 'has' : 'have'} no cost estimate (${quoted(ids)})`,
    });
  }
  checkFinite({ makespan_ms: result.makespanMs, lower_bound_ms: result.lowerBoundMs, total_work_ms: result.totalWorkMs, total_cost_usd: result.totalCost, utilisation: result.utilisation });

  const taskRuns: TaskRun[] = tasks.map((task, i) => ({
    task_id: task.task_id,
    type: TYPE_CODES[types[i]],
    worker: result.worker[i] >= 0 ? result.worker[i] : null,
    start_ms: result.start[i],
    end_ms: result.end[i],
    status: STATUS[result.status[i]],
    resolved_input: flow.resolvedInputs[i],
    mock_output: flow.mockOutputs[i],
  }));
  const dataNotes = boundTaskData(taskRuns);
  const bounded = boundFindings([...estimates.findings, ...costFindings, ...flow.findings]);

  return {
    workers: options.workers,
    limits: options.limits ?? {},
    seed,
    tasks: taskRuns,
    makespan_ms: result.makespanMs,
    lower_bound_ms: result.lowerBoundMs,
    plan_lower_bound_ms: result.planLowerBoundMs,
    critical_path: result.criticalPath.map((i) => index.ids[i]),
    total_work_ms: result.totalWorkMs,
    total_cost_usd: unknownRun.length ? null : result.totalCost,
    peak_parallelism: result.peakParallelism,
    utilisation: result.utilisation,
    worker_utilisation: [...busy].map((b) => (result.makespanMs > 0 ? b / result.makespanMs : 0)),
    assumptions: [...estimates.assumptions, ...flow.assumptions, ...dataNotes, ...bounded.notes],
    findings: bounded.findings,
    failed_task_ids: tasks.filter((_, i) => result.status[i] === 1).map((t) => t.task_id),
    skipped_task_ids: tasks.filter((_, i) => result.status[i] === 2).map((t) => t.task_id),
    monte_carlo: carlo && {
      runs: carlo.runs,
      failure_probability: probability,
      failure_probability_overrides: overrides.length,
      completed_runs: carlo.completedRuns,
      completion_rate: carlo.completionRate,
      makespan_ms: carlo.makespan,
      // A run that completes runs every task, the ones without a cost estimate too.
      cost_usd: costKnown ? carlo.cost : null,
      failed_runs: carlo.failedRuns,
      time_to_first_failure_ms: carlo.timeToFirstFailure,
      skipped_mean: carlo.skippedMean,
    },
  };
}
