/**
 * The report that goes with a proposed grouping, whoever proposed it (the rule-based
 * optimiser or a model): the same dry-run figures, task by task and by subgraph at the
 * same P, so groupings from different optimisers compare like for like.
 */

import type { GraphIndex } from '@/lib/graph';
import type { SubGraph } from '@/lib/plan';
import { createScheduler, type ScheduleResult } from '@/lib/simulate/schedule';

export interface OptimizeReport {
  /** Number of subgraphs returned. */
  subgraphs: number;
  /** Tasks minus subgraphs: dispatches no longer needed. */
  dispatches_saved: number;
  /** Dry-run makespan (ms) dispatching task by task at `workers` workers. */
  makespan_before_ms: number;
  /** Dry-run makespan (ms) dispatching the returned subgraphs at `workers` workers; the rule-based optimiser never returns one above the before figure. */
  makespan_after_ms: number;
  /** Critical path (ms) of the plan, task by task; grouping by chain links never changes it. */
  critical_path_ms: number;
  workers: number;
  /** What was done and why, one sentence each. */
  reasons: string[];
}

export const ms = (x: number): string => `${x.toLocaleString('en')} ms`;
export const plural = (count: number, word: string, many = `${word}s`): string => `${count.toLocaleString('en')} ${count === 1 ? word : many}`;

/**
 * The task-level dry run (durations in ms by task node index) that every grouping is
 * measured against. Throws an Error on a cyclic plan or invalid durations/workers.
 */
export function taskLevelDryRun(index: GraphIndex, durations: Float64Array, workers: number): ScheduleResult {
  return createScheduler({
    index,
    durations,
    costs: new Float64Array(index.n),
    types: new Uint8Array(index.n),
    workers,
  }).run();
}

/**
 * The report of `subgraphs` for a plan of `taskCount` tasks: `reasons` so far, then one
 * line with the counts and both makespans.
 */
export function groupingReport(
  subgraphs: readonly SubGraph[],
  taskCount: number,
  workers: number,
  taskRun: Pick<ScheduleResult, 'makespanMs' | 'criticalPathMs'>,
  afterMs: number,
  reasons: string[],
): OptimizeReport {
  const saved = taskCount - subgraphs.length;
  const before = taskRun.makespanMs;
  return {
    subgraphs: subgraphs.length,
    dispatches_saved: saved,
    makespan_before_ms: before,
    makespan_after_ms: afterMs,
    critical_path_ms: taskRun.criticalPathMs,
    workers,
    reasons: [
      ...reasons,
      `${plural(subgraphs.length, 'subgraph')} for ${plural(taskCount, 'task')}: ${plural(saved, 'dispatch', 'dispatches')} saved; dry run at P = ${workers}: ${ms(before)} task by task, ${ms(afterMs)} by subgraph`,
    ],
  };
}
