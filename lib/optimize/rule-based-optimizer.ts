/**
 * Rule-based grouping of a plan's tasks into subgraphs (seed 000's ManualOptimizer):
 * deterministic, fast, and never worse than dispatching task by task in a dry run.
 *
 * The one rule: merge a chain link u → v, where v is u's only dependent and u is v's
 * only prerequisite. Such a pair can never run side by side, so dispatching it as one
 * unit loses no parallelism; and since nothing else enters or leaves the pair in the
 * middle, merging cannot create a cycle among subgraphs or lengthen any path, so the
 * critical path is unchanged. Links are merged into maximal chains; forks and joins
 * stay at subgraph boundaries, so independent branches remain separate subgraphs.
 *
 * List scheduling has anomalies: a merged chain keeps its worker where the task-level
 * scheduler might have given the next slot to a more urgent task, so the grouped
 * makespan can come out above the task-level one at the same P. The optimiser checks
 * with a dry run and, when merging every link is too long, starts again from a grouping
 * known not to be: the links the task-level dry run already runs back to back (the
 * successor starts the instant its predecessor ends, so merging them reproduces that
 * schedule when durations are positive), else one task per subgraph (which reproduces
 * it exactly). It then adds the other links back in batches, halving any batch that
 * lengthens the dry run, within a budget of scheduler runs; after each accepted batch
 * it also merges the links that now run back to back. Every accepted step is checked,
 * so the result's dry run is never longer than task by task.
 *
 * Complexity: O(T + E) for the grouping. Scheduler runs, each O((T + E) log T),
 * dominate: two when merging every link is not too long, else at most 3 + 24 (fewer on
 * big plans, see REFINE_WORK).
 */

import type { GraphIndex, GraphTaskInput } from '@/lib/graph';
import type { SubGraph } from '@/lib/plan';
import { groupingReport, ms, plural, taskLevelDryRun, type OptimizeReport } from './grouping-report';
import { scheduleSubgraphs } from './subgraph-schedule';

export type { OptimizeReport } from './grouping-report';

export interface OptimizeResult {
  subgraphs: SubGraph[];
  report: OptimizeReport;
}

/** next[u] = v when u → v is a chain link (v is u's only dependent, u is v's only prerequisite), else -1. */
export function chainLinks(index: GraphIndex): Int32Array {
  const { n, succOffsets, succ, predOffsets } = index;
  const next = new Int32Array(n).fill(-1);
  for (let u = 0; u < n; u++) {
    if (succOffsets[u + 1]! - succOffsets[u]! !== 1) continue;
    const v = succ[succOffsets[u]!]!;
    if (predOffsets[v + 1]! - predOffsets[v]! === 1) next[u] = v;
  }
  return next;
}

/**
 * Groups the tasks along the given links (each a chain link, see chainLinks): one
 * subgraph per maximal run, its tasks in chain order. Subgraphs are numbered sg-1, sg-2,
 * … in plan order of their first task (the chain's head), so with no links each task
 * keeps its own position and the grouped dry run breaks ties exactly as the task-level
 * one does. For a plan listed in dependency order (as planners write them) this order
 * is also topological.
 * depends_on is derived from the tasks' dependencies, in subgraph number order.
 * Throws when the links form a cycle (only possible on a cyclic plan).
 */
export function groupAlongLinks(index: GraphIndex, next: Int32Array): SubGraph[] {
  return group(index, next).subgraphs;
}

interface Grouping {
  subgraphs: SubGraph[];
  /** Subgraph position of each task. */
  owner: Int32Array;
}

function group(index: GraphIndex, next: Int32Array): Grouping {
  const { n, ids, predOffsets, pred } = index;
  const linkedTo = new Uint8Array(n);
  for (let u = 0; u < n; u++) if (next[u] !== -1) linkedTo[next[u]!] = 1;

  const owner = new Int32Array(n).fill(-1);
  const chains: number[][] = [];
  for (let head = 0; head < n; head++) {
    if (linkedTo[head]) continue;
    const chain: number[] = [];
    for (let v = head; v !== -1; v = next[v]!) {
      owner[v] = chains.length;
      chain.push(v);
    }
    chains.push(chain);
  }
  const covered = chains.reduce((sum, chain) => sum + chain.length, 0);
  if (covered !== n) throw new Error('groupAlongLinks: the chain links form a cycle; the plan must be acyclic');

  const stamp = new Int32Array(chains.length).fill(-1);
  const subgraphs = chains.map((chain, s) => {
    const deps: number[] = [];
    stamp[s] = s;
    for (const v of chain) {
      const stop = predOffsets[v + 1]!;
      for (let e = predOffsets[v]!; e < stop; e++) {
        const o = owner[pred[e]!]!;
        if (stamp[o] === s) continue;
        stamp[o] = s;
        deps.push(o);
      }
    }
    deps.sort((a, b) => a - b);
    return {
      subgraph_id: `sg-${s + 1}`,
      task_ids: chain.map((v) => ids[v]!),
      depends_on: deps.map((o) => `sg-${o + 1}`),
    };
  });
  return { subgraphs, owner };
}

/**
 * Scheduler runs spent adding links back after an anomaly: at most MAX_REFINE_RUNS, and
 * fewer on big plans so that runs × (tasks + edges) stays near REFINE_WORK (about 0.5 s
 * on a 20,000-task plan), but always at least MIN_REFINE_RUNS.
 */
const MAX_REFINE_RUNS = 24;
const MIN_REFINE_RUNS = 4;
const REFINE_WORK = 100_000;

/**
 * Groups the plan's tasks into subgraphs by merging chain links, and reports the
 * grouping with a dry run at `workers` workers (durations in ms by task node index).
 * `index` is the plan's graph index (buildGraphIndex of `tasks`); the grouping reads
 * ids and edges from it alone, `tasks` is taken for symmetry with the checks.
 * Throws an Error on a cyclic plan or invalid durations/workers, as `schedule` does.
 */
export function optimizeSubgraphs(
  _tasks: readonly GraphTaskInput[],
  index: GraphIndex,
  durations: Float64Array,
  workers: number,
): OptimizeResult {
  const { n, succOffsets, predOffsets } = index;
  // Task-level dry run first: it validates the input and rejects cyclic plans.
  const taskRun = taskLevelDryRun(index, durations, workers);
  const before = taskRun.makespanMs;
  const criticalPathMs = taskRun.criticalPathMs;

  const next = chainLinks(index);
  let links = 0;
  for (let u = 0; u < n; u++) if (next[u] !== -1) links++;
  let forks = 0;
  let joins = 0;
  for (let v = 0; v < n; v++) {
    if (succOffsets[v + 1]! - succOffsets[v]! > 1) forks++;
    if (predOffsets[v + 1]! - predOffsets[v]! > 1) joins++;
  }

  const reasons: string[] = [];
  const finish = (subgraphs: SubGraph[], after: number): OptimizeResult => ({
    subgraphs,
    report: groupingReport(subgraphs, n, workers, taskRun, after, reasons),
  });

  if (links === 0) {
    reasons.push(
      n === 0
        ? 'The plan has no tasks, so there is nothing to group'
        : "No chain links: no task's only dependent has it as its only prerequisite, so each task stays its own subgraph",
    );
    const singletons = groupAlongLinks(index, next);
    return finish(singletons, scheduleSubgraphs(index, durations, singletons, workers).result.makespanMs);
  }

  const chains = groupAlongLinks(index, next);
  const merged = chains.filter((sg) => sg.task_ids.length > 1);
  const longest = merged.reduce((best, sg) => Math.max(best, sg.task_ids.length), 0);
  reasons.push(
    `${plural(links, 'chain link')} ${links === 1 ? 'forms' : 'form'} ${plural(merged.length, 'chain')} (longest ${plural(longest, 'task')}): in each link the first task's only dependent is the second and the second's only prerequisite is the first, so they can never run side by side and one dispatch can do both without lengthening the critical path (${ms(criticalPathMs)})`,
  );
  if (forks + joins > 0) {
    reasons.push(
      `${plural(forks, 'fork')} (tasks with several dependents) and ${plural(joins, 'join')} (tasks with several prerequisites) stay at subgraph boundaries, so independent branches remain separate subgraphs that can run in parallel`,
    );
  }

  const full = scheduleSubgraphs(index, durations, chains, workers).result.makespanMs;
  if (full <= before) {
    reasons.push(`Merged every chain link: the grouped dry run is no longer than task by task at P = ${workers}`);
    return finish(chains, full);
  }

  // Anomaly. Start from a grouping known not to be longer: the links the task-level
  // dry run already runs back to back (merging them reproduces that schedule when
  // durations are positive), else none. Then add the other links back in batches,
  // halving a batch that lengthens the dry run, within a budget of scheduler runs.
  reasons.push(
    `Merging every chain link gave a dry-run makespan of ${ms(full)} at P = ${workers}, above the ${ms(before)} task by task (a list-scheduling anomaly: with whole chains held on one worker, other tasks reach the free workers in a different order)`,
  );
  const evaluate = (linked: Int32Array) => {
    const g = group(index, linked);
    return { ...g, run: scheduleSubgraphs(index, durations, g.subgraphs, workers).result };
  };
  type Evaluated = ReturnType<typeof evaluate>;
  let current: Int32Array = new Int32Array(n).fill(-1);
  let kept = 0;
  for (let u = 0; u < n; u++) {
    const v = next[u]!;
    if (v !== -1 && taskRun.start[v] === taskRun.end[u]) {
      current[u] = v;
      kept++;
    }
  }
  let best = before;
  let grouping: SubGraph[] | null = null;
  if (kept > 0 && kept < links) {
    const tight = evaluate(current);
    if (tight.run.makespanMs <= before) {
      best = tight.run.makespanMs;
      grouping = tight.subgraphs;
    }
  }
  if (grouping === null) {
    current.fill(-1);
    kept = 0;
  }
  const backToBack = kept;

  // The links still split, in chain order, so a batch is a run of neighbouring chains.
  const candidates: number[] = [];
  for (const chain of chains) {
    for (const id of chain.task_ids) {
      const u = index.idToIndex.get(id)!;
      if (next[u] !== -1 && current[u] === -1) candidates.push(u);
    }
  }
  const budget = Math.max(MIN_REFINE_RUNS, Math.min(MAX_REFINE_RUNS, Math.floor(REFINE_WORK / (n + index.edgeCount))));
  let runs = 0;
  let added = 0;
  const accept = (linked: Int32Array, e: Evaluated) => {
    for (const u of candidates) {
      if (current[u] === -1 && linked[u] !== -1) {
        kept++;
        added++;
      }
    }
    current = linked;
    best = e.run.makespanMs;
    grouping = e.subgraphs;
  };
  /**
   * After a change, links between subgraphs that now run back to back: merging them
   * keeps the schedule (with positive durations), so it is checked once and kept.
   */
  const closeOver = (e: Evaluated) => {
    if (runs >= budget) return;
    const trial = current.slice();
    let found = false;
    for (const u of candidates) {
      const v = next[u]!;
      if (trial[u] === -1 && e.run.start[e.owner[v]!] === e.run.end[e.owner[u]!]) {
        trial[u] = v;
        found = true;
      }
    }
    if (!found) return;
    const closed = evaluate(trial);
    runs++;
    if (closed.run.makespanMs <= best) accept(trial, closed);
  };
  const batches: Array<[number, number]> = [];
  const split = (lo: number, hi: number) => {
    const mid = (lo + hi) >>> 1;
    batches.push([lo, mid], [mid, hi]);
  };
  // All of them at once is the full grouping, known to be too long: start with halves.
  if (candidates.length > 1) split(0, candidates.length);
  for (let b = 0; b < batches.length && runs < budget; b++) {
    const [lo, hi] = batches[b]!;
    const trial = current.slice();
    let changed = false;
    for (let k = lo; k < hi; k++) {
      const u = candidates[k]!;
      if (trial[u] === -1) {
        trial[u] = next[u]!;
        changed = true;
      }
    }
    if (!changed) continue;
    const e = evaluate(trial);
    runs++;
    if (e.run.makespanMs <= best) {
      accept(trial, e);
      closeOver(e);
    } else if (hi - lo > 1) split(lo, hi);
  }

  if (grouping === null) {
    reasons.push(
      'Kept every task in its own subgraph: no merge could be shown not to lengthen the dry run at this P, and task by task reproduces the task-level schedule exactly',
    );
    const singletons = groupAlongLinks(index, new Int32Array(n).fill(-1));
    return finish(singletons, scheduleSubgraphs(index, durations, singletons, workers).result.makespanMs);
  }
  const parts: string[] = [];
  if (backToBack > 0) {
    parts.push(
      `${plural(backToBack, 'link')} whose second task starts the instant the first ends in the task-level dry run (merging them does not change that schedule)`,
    );
  }
  if (added > 0) parts.push(`${plural(added, 'more link')} added back in batches (and the links then running back to back), each checked not to lengthen the dry run`);
  reasons.push(
    `Kept ${kept.toLocaleString('en')} of ${plural(links, 'chain link')}: ${parts.join(', and ')}; the other ${plural(links - kept, 'link')} ${links - kept === 1 ? 'stays' : 'stay'} split`,
  );
  return finish(grouping, best);
}
