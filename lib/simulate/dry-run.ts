import { z } from 'zod';
import { buildGraphIndex, topologicalOrder } from '@/lib/graph';
import { utf8Bytes, type TaskData } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { simulateDataFlow, type ConvertorRunner, type Finding } from './data-flow';
import { MAX_MONTE_CARLO_TASK_RUNS, monteCarloAsync, monteCarloBudgetProblem } from './monte-carlo';
import { schedule } from './schedule';
import { TYPE_CODES, estimateTasks } from './task-estimates';
import { DRY_RUN_DATA_LIMITS } from './dry-run-limits';

// A dry run: when each task would run on P workers, what data would flow, what it would
// cost, and what would be skipped if some tasks failed. Pure for a given seed, apart from
// convertor code, which runs in the caller's sandbox.

const TypeLimits = z.partialRecord(z.enum(TYPE_CODES), z.number().int().min(1).max(10_000));

export const DryRunOptions = z.strictObject({
  workers: z.number().int().min(1, 'At least one worker').max(10_000),
  limits: TypeLimits.optional(),
  fail_task_ids: z.array(z.string()).max(20_000).optional(),
  failure_probability: z.number().min(0).max(1).optional(),
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

export interface DryRunResult {
  workers: number;
  limits: Partial<Record<string, number>>;
  seed: number;
  tasks: TaskRun[];
  makespan_ms: number;
  lower_bound_ms: number;
  critical_path: string[];
  total_work_ms: number;
  total_cost_usd: number;
  peak_parallelism: number;
  utilisation: number;
  worker_utilisation: number[];
  assumptions: string[];
  findings: Finding[];
  failed_task_ids: string[];
  skipped_task_ids: string[];
  monte_carlo: null | {
    runs: number;
    failure_probability: number;
    makespan_ms: { p50: number; p95: number; min: number; max: number };
    cost_usd: { p50: number; p95: number };
    failed_runs: number;
    skipped_mean: number;
  };
}

export class DryRunError extends Error {}
/** The request asks for more work than one dry run may do (a 400: the options, not the plan, are at fault). */
export class DryRunLimitError extends DryRunError {}

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

export async function dryRun(plan: Pick<TaskData, 'planned_tasks'>, registry: Registry, options: DryRunOptions, runConvertor?: ConvertorRunner): Promise<DryRunResult> {
  const tasks = plan.planned_tasks;
  const index = buildGraphIndex(tasks);
  const order = topologicalOrder(index);
  if (!order) throw new DryRunError('The plan has a cycle; a dry run needs a DAG. Fix the cycle the issues panel names first.');
  if (index.duplicates.length) throw new DryRunError(`Task id "${index.duplicates[0]}" is used twice; a dry run needs unique task ids`);
  if (index.missing.length) throw new DryRunError(`Task "${index.ids[index.missing[0].task]}" depends on "${index.missing[0].dependency}", which is not in the plan`);
  const unknown = (options.fail_task_ids ?? []).filter((id) => !index.idToIndex.has(id));
  if (unknown.length) throw new DryRunError(`No task ${unknown.slice(0, 5).map((id) => `"${id}"`).join(', ')} in the plan to fail`);
  const runs = options.runs ?? 1;
  const probability = options.failure_probability ?? 0;
  const wantsMonteCarlo = runs > 1 || probability > 0;
  const budget = wantsMonteCarlo ? monteCarloBudgetProblem(runs, tasks.length) : null;
  if (budget) throw new DryRunLimitError(budget);

  const { durations, costs, types, assumptions } = estimateTasks(tasks, registry);
  const typeLimits = TYPE_CODES.map((type) => options.limits?.[type]);
  const fails = new Uint8Array(tasks.length);
  for (const id of options.fail_task_ids ?? []) fails[index.idToIndex.get(id)!] = 1;
  const seed = options.seed ?? 1;

  const result = schedule({ index, durations, costs, types, workers: options.workers, typeLimits, fails });
  const flow = await simulateDataFlow(tasks, index, order, (i) => result.status[i] === 0, registry, runConvertor);

  const busy = new Float64Array(options.workers);
  tasks.forEach((_, i) => {
    if (result.worker[i] >= 0) busy[result.worker[i]] += result.end[i] - result.start[i];
  });
  const carlo = wantsMonteCarlo
    ? await monteCarloAsync({ index, durations, costs, types, workers: options.workers, typeLimits, failureProbability: probability, runs, seed, alwaysFail: fails })
    : null;

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
  const bounded = boundFindings(flow.findings);

  return {
    workers: options.workers,
    limits: options.limits ?? {},
    seed,
    tasks: taskRuns,
    makespan_ms: result.makespanMs,
    lower_bound_ms: result.lowerBoundMs,
    critical_path: result.criticalPath.map((i) => index.ids[i]),
    total_work_ms: result.totalWorkMs,
    total_cost_usd: result.totalCost,
    peak_parallelism: result.peakParallelism,
    utilisation: result.utilisation,
    worker_utilisation: [...busy].map((b) => (result.makespanMs > 0 ? b / result.makespanMs : 0)),
    assumptions: [...assumptions, ...flow.assumptions, ...dataNotes, ...bounded.notes],
    findings: bounded.findings,
    failed_task_ids: tasks.filter((_, i) => result.status[i] === 1).map((t) => t.task_id),
    skipped_task_ids: tasks.filter((_, i) => result.status[i] === 2).map((t) => t.task_id),
    monte_carlo: carlo && {
      runs: carlo.runs,
      failure_probability: probability,
      makespan_ms: carlo.makespan,
      cost_usd: carlo.cost,
      failed_runs: carlo.failedRuns,
      skipped_mean: carlo.skippedMean,
    },
  };
}
