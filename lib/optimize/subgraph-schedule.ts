/**
 * Dry run of a grouping: each subgraph is one dispatch that runs its tasks back to back
 * on one worker, so it lasts the sum of its tasks' durations and starts once every
 * subgraph in its depends_on has finished. Scheduled with the task-level list scheduler
 * (lib/simulate/schedule) over a graph whose nodes are the subgraphs.
 *
 * Complexity: O(T + S + D) to build the subgraph graph (T tasks, S subgraphs, D
 * depends_on entries), then one scheduler run, O((S + D) log S).
 *
 * Assumes a valid grouping (subgraphIssues returns none): the tasks of a subgraph run
 * in the order listed, so that order must respect their dependencies. Throws an Error
 * on what would make the figures meaningless: an unknown task, a duplicate subgraph id,
 * a depends_on naming no subgraph or itself, a cycle among subgraphs.
 */

import { buildGraphIndex, type GraphIndex } from '@/lib/graph';
import type { SubGraph } from '@/lib/plan';
import { createScheduler, type ScheduleResult } from '@/lib/simulate/schedule';

export interface SubgraphDryRun {
  /** Graph over the subgraphs: node s is subgraphs[s], edges from depends_on. */
  index: GraphIndex;
  /** Duration of each subgraph (ms): the sum of its tasks' durations, in listed order. */
  durations: Float64Array;
  /** The schedule by subgraph node index; its criticalPathMs is the grouping's critical path. */
  result: ScheduleResult;
}

/**
 * Schedules `subgraphs` on `workers` workers. `index` and `durations` describe the
 * tasks (durations by task node index, as for `schedule`).
 */
export function scheduleSubgraphs(
  index: GraphIndex,
  durations: Float64Array,
  subgraphs: readonly SubGraph[],
  workers: number,
): SubgraphDryRun {
  if (durations.length !== index.n) {
    throw new Error(`scheduleSubgraphs: durations has ${durations.length} entries but the graph has ${index.n} tasks`);
  }
  const count = subgraphs.length;
  const sgDurations = new Float64Array(count);
  for (let s = 0; s < count; s++) {
    const sg = subgraphs[s]!;
    let total = 0;
    for (const id of sg.task_ids) {
      const v = index.idToIndex.get(id);
      if (v === undefined) throw new Error(`scheduleSubgraphs: subgraph "${sg.subgraph_id}" lists "${id}", which is not a task`);
      total += durations[v]!;
    }
    sgDurations[s] = total;
  }
  const sgIndex = buildGraphIndex(
    subgraphs.map((sg) => ({ task_id: sg.subgraph_id, dependencies: sg.depends_on })),
  );
  if (sgIndex.duplicates.length > 0) {
    throw new Error(`scheduleSubgraphs: subgraph id "${sgIndex.duplicates[0]}" is used more than once`);
  }
  if (sgIndex.missing.length > 0) {
    const { task, dependency } = sgIndex.missing[0]!;
    throw new Error(`scheduleSubgraphs: subgraph "${sgIndex.ids[task]}" depends on "${dependency}", which is not a subgraph`);
  }
  if (sgIndex.selfLoops.length > 0) {
    throw new Error(`scheduleSubgraphs: subgraph "${sgIndex.ids[sgIndex.selfLoops[0]!]}" depends on itself`);
  }
  const result = createScheduler({
    index: sgIndex,
    durations: sgDurations,
    costs: new Float64Array(count),
    types: new Uint8Array(count),
    workers,
  }).run();
  return { index: sgIndex, durations: sgDurations, result };
}

/** The dry-run makespan (ms) of the grouping at `workers` workers. */
export function subgraphMakespan(
  index: GraphIndex,
  durations: Float64Array,
  subgraphs: readonly SubGraph[],
  workers: number,
): number {
  return scheduleSubgraphs(index, durations, subgraphs, workers).result.makespanMs;
}
