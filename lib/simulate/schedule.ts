/**
 * Dry run of a plan: deterministic list scheduling on P identical workers.
 *
 * Priority is the upward rank (a task's duration plus the largest rank among its
 * dependents, i.e. the longest remaining path), ties broken by the lower task
 * index. Optional per-type limits cap how many tasks of one execution type run at
 * once (e.g. at most 2 LLM calls); a type at its limit never blocks another type.
 *
 * Event-driven: at each instant every task ending then is finished first (its
 * dependents may become ready, or be skipped when it failed), then as many ready
 * tasks start as free workers and type limits allow, highest rank first, each on
 * the free worker with the lowest id.
 *
 * Data structures, all binary heaps of integer ids (IntHeap, over typed arrays
 * allocated once per scheduler):
 * - one heap of ready tasks per type code, best first (sized by its task count);
 * - a heap over the type codes that have ready tasks and are under their limit,
 *   keyed by their best ready task (so choosing the next task is O(log K));
 * - a heap of running tasks by end time (ties: lower task index);
 * - a heap of free worker ids, lowest first.
 *
 * Complexity: O((T + E) log T) time per run for T tasks and E edges, O(T + P)
 * memory. `createScheduler` does the run-independent work once (topological
 * order, ranks, critical path, lower bound), so Monte Carlo reuses it.
 *
 * Failures: a task marked to fail runs for its full duration and then fails; all
 * of its descendants are skipped at that instant (status skipped, worker -1,
 * start = end = the failure time) and never run.
 *
 * Lower bound: a run's bound counts only the tasks that run in it (ran or failed), so it
 * holds for that run (bound <= makespan); skipped tasks would otherwise lengthen the bound
 * of a run they shortened. The bound of the plan as given is `planLowerBoundMs`.
 */

import { criticalPath as longestPath } from '../graph/critical-path';
import type { GraphIndex } from '../graph/index-build';
import { topologicalOrder } from '../graph/topological-order';
import { IntHeap } from './int-heap';

/** Task status codes in `ScheduleResult.status`. */
export const TASK_RAN = 0;
export const TASK_FAILED = 1;
export const TASK_SKIPPED = 2;
export type TaskStatus = typeof TASK_RAN | typeof TASK_FAILED | typeof TASK_SKIPPED;

/** Sentinel while a run is in progress; never present in a returned result. */
const PENDING = 255;
/** Type codes are bytes. */
const TYPE_CODES = 256;

export interface ScheduleInput {
  readonly index: GraphIndex;
  /** Duration of each task in ms (finite, >= 0), by node index. */
  readonly durations: Float64Array;
  /** Cost of each task (finite, >= 0), by node index; charged when the task runs or fails. */
  readonly costs: Float64Array;
  /** Execution type code of each task (0–255), by node index. */
  readonly types: Uint8Array;
  /** Number of workers P (integer >= 1). */
  readonly workers: number;
  /**
   * Maximum number of tasks of a type code running at once, indexed by type code;
   * undefined (or Infinity) means unlimited. A limit must be an integer >= 1.
   */
  readonly typeLimits?: ReadonlyArray<number | undefined>;
  /** Non-zero (1) = this task fails when it runs (after its full duration). */
  readonly fails?: Uint8Array;
}

export interface ScheduleResult {
  /** Start time (ms) of each task; for a skipped task, the time it was skipped. */
  start: Float64Array;
  /** End time (ms) of each task; equal to `start` for a skipped task. */
  end: Float64Array;
  /** Worker id (0 .. P-1) that ran each task, -1 if it was skipped. */
  worker: Int32Array;
  /** TASK_RAN, TASK_FAILED or TASK_SKIPPED per task. */
  status: Uint8Array;
  makespanMs: number;
  /** Sum of the durations of the tasks that ran or failed. */
  totalWorkMs: number;
  /**
   * max(longest chain of tasks that ran or failed, their total duration / P): no schedule
   * of the tasks this run ran can be shorter, so it is <= makespanMs. Skipped tasks do not
   * count. Without failures it equals planLowerBoundMs.
   */
  lowerBoundMs: number;
  /**
   * max(critical path length, total duration of all tasks / P), on the plan as given
   * (failures ignored): no schedule of the full plan can be shorter.
   */
  planLowerBoundMs: number;
  /** When the first task failed, or null when none did. */
  firstFailureMs: number | null;
  /** Node indexes of a longest path by duration, source first (ties towards lower indexes). */
  criticalPath: number[];
  criticalPathMs: number;
  /** Sum of the costs of the tasks that ran or failed. */
  totalCost: number;
  /** Number of tasks with status TASK_FAILED. */
  failedCount: number;
  /** Number of tasks with status TASK_SKIPPED. */
  skippedCount: number;
  /** Largest number of tasks running at the same instant. */
  peakParallelism: number;
  /** Busy time / (P × makespan); 0 when the makespan is 0. */
  utilisation: number;
}

/** A scheduler for one plan: the run-independent work done once, then any number of runs. */
export interface Scheduler {
  readonly n: number;
  readonly workers: number;
  readonly lowerBoundMs: number;
  readonly criticalPath: readonly number[];
  readonly criticalPathMs: number;
  /** Upward rank of each task (its duration plus the longest path after it). */
  readonly rank: Float64Array;
  /**
   * Schedules the plan with the given failures (none when omitted). The typed
   * arrays of the result belong to the scheduler and are overwritten by the next
   * run: copy them to keep them.
   */
  run(fails?: Uint8Array): ScheduleResult;
}

function checkLength(name: string, array: ArrayLike<number>, n: number): void {
  if (array.length !== n) {
    throw new Error(`schedule: ${name} has ${array.length} entries but the graph has ${n} tasks`);
  }
}

function checkNonNegative(name: string, values: Float64Array, index: GraphIndex): void {
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (!(x >= 0) || x === Infinity) {
      throw new Error(`schedule: ${name} of task "${index.ids[i]}" must be a finite number >= 0, got ${String(x)}`);
    }
  }
}

/**
 * Validates the input and does the run-independent work: topological order,
 * upward ranks, critical path and lower bound. Throws an Error on a cyclic graph
 * or invalid input.
 */
export function createScheduler(input: Omit<ScheduleInput, 'fails'>): Scheduler {
  const { index, durations, costs, types, workers, typeLimits } = input;
  const { n, succOffsets, succ, predOffsets, pred } = index;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new Error(`schedule: workers must be an integer >= 1, got ${String(workers)}`);
  }
  checkLength('durations', durations, n);
  checkLength('costs', costs, n);
  checkLength('types', types, n);
  checkNonNegative('duration', durations, index);
  checkNonNegative('cost', costs, index);

  const limit = new Float64Array(TYPE_CODES).fill(Infinity);
  if (typeLimits !== undefined) {
    if (typeLimits.length > TYPE_CODES) {
      throw new Error(`schedule: typeLimits has ${typeLimits.length} entries; type codes are 0–255`);
    }
    for (let t = 0; t < typeLimits.length; t++) {
      const l = typeLimits[t];
      if (l === undefined || l === Infinity) continue;
      if (!Number.isInteger(l) || l < 1) {
        throw new Error(`schedule: the limit of type ${t} must be an integer >= 1 (or undefined), got ${String(l)}`);
      }
      limit[t] = l;
    }
  }

  const order = topologicalOrder(index);
  if (order === null) {
    throw new Error('schedule: the plan has a dependency cycle, so it cannot be scheduled (use findCycle to locate it)');
  }

  // Upward rank, sinks first.
  const rank = new Float64Array(n);
  let totalAllMs = 0;
  for (let k = n - 1; k >= 0; k--) {
    const v = order[k]!;
    let best = 0;
    const stop = succOffsets[v + 1]!;
    for (let e = succOffsets[v]!; e < stop; e++) {
      const r = rank[succ[e]!]!;
      if (r > best) best = r;
    }
    rank[v] = durations[v]! + best;
    totalAllMs += durations[v]!;
  }
  const cp = longestPath(index, (i) => durations[i]!, order)!;
  const lowerBoundMs = Math.max(cp.length, totalAllMs / workers);

  const indegree = new Int32Array(n);
  for (let v = 0; v < n; v++) indegree[v] = predOffsets[v + 1]! - predOffsets[v]!;

  const runningByType = new Int32Array(TYPE_CODES);
  const remaining = new Int32Array(n);
  const stack = new Int32Array(n);

  const start = new Float64Array(n);
  const end = new Float64Array(n);
  /** Longest chain of run tasks ending at each task, for a run with failures. */
  const chain = new Float64Array(n);
  const worker = new Int32Array(n);
  const status = new Uint8Array(n);

  /** Task a goes before task b: higher rank, then lower index. */
  const before = (a: number, b: number): boolean => {
    const ra = rank[a]!;
    const rb = rank[b]!;
    return ra > rb || (ra === rb && a < b);
  };

  // One ready heap per type code, sized by its task count (empty for unused codes).
  const typeCount = new Int32Array(TYPE_CODES);
  for (let v = 0; v < n; v++) typeCount[types[v]!]!++;
  const ready: IntHeap[] = [];
  const readyTypes: number[] = [];
  for (let t = 0; t < TYPE_CODES; t++) {
    const count = typeCount[t]!;
    ready.push(new IntHeap(count, before));
    if (count > 0) readyTypes.push(t);
  }

  /** Type a's best ready task goes before type b's. */
  const typeBefore = (a: number, b: number): boolean => before(ready[a]!.peek(), ready[b]!.peek());
  // Eligible type codes (ready tasks, under their limit), best head first; a
  // type's key is its best ready task, so it is updated in place when that changes.
  const eligible = new IntHeap(TYPE_CODES, typeBefore, TYPE_CODES);

  /** Task a ends before task b: earlier end, then lower index. */
  const endsBefore = (a: number, b: number): boolean => {
    const ea = end[a]!;
    const eb = end[b]!;
    return ea < eb || (ea === eb && a < b);
  };
  const running = new IntHeap(workers, endsBefore);
  const freeWorkers = new IntHeap(workers, (a, b) => a < b);

  /** Makes v ready; its type becomes eligible when under its limit. */
  function makeReady(v: number): void {
    const t = types[v]!;
    ready[t]!.push(v);
    if (eligible.has(t)) eligible.update(t);
    else if (runningByType[t]! < limit[t]!) eligible.push(t);
  }

  /** Skips every unresolved descendant of the failed task f at time now. Returns how many. */
  function skipDescendants(f: number, now: number): number {
    let top = 0;
    let skipped = 0;
    stack[top++] = f;
    while (top > 0) {
      const u = stack[--top]!;
      const stop = succOffsets[u + 1]!;
      for (let e = succOffsets[u]!; e < stop; e++) {
        const w = succ[e]!;
        if (status[w] !== PENDING) continue;
        status[w] = TASK_SKIPPED;
        start[w] = now;
        end[w] = now;
        worker[w] = -1;
        skipped++;
        stack[top++] = w;
      }
    }
    return skipped;
  }

  /**
   * Longest chain of tasks that ran or failed. Every predecessor of such a task ran (a task
   * starts only when all of them succeeded), so the chain never passes a skipped task.
   */
  function longestRunChain(): number {
    let longest = 0;
    for (let k = 0; k < n; k++) {
      const v = order![k]!;
      if (status[v] === TASK_SKIPPED) continue;
      let best = 0;
      const stop = predOffsets[v + 1]!;
      for (let e = predOffsets[v]!; e < stop; e++) {
        const c = chain[pred[e]!]!;
        if (c > best) best = c;
      }
      chain[v] = best + durations[v]!;
      if (chain[v]! > longest) longest = chain[v]!;
    }
    return longest;
  }

  function run(fails?: Uint8Array): ScheduleResult {
    if (fails !== undefined) checkLength('fails', fails, n);
    remaining.set(indegree);
    status.fill(PENDING);
    for (const t of readyTypes) ready[t]!.clear();
    runningByType.fill(0);
    eligible.clear();
    running.clear();
    freeWorkers.clear();
    for (let w = 0; w < workers; w++) freeWorkers.push(w);

    for (let v = 0; v < n; v++) if (remaining[v] === 0) makeReady(v);

    let now = 0;
    let resolved = 0;
    let makespanMs = 0;
    let totalWorkMs = 0;
    let totalCost = 0;
    let peakParallelism = 0;
    let failedCount = 0;
    let skippedCount = 0;
    let firstFailureMs: number | null = null;

    for (;;) {
      // Start phase: best eligible task on the lowest free worker, while both last.
      while (freeWorkers.size > 0 && eligible.size > 0) {
        const t = eligible.peek();
        const readyT = ready[t]!;
        const v = readyT.pop();
        runningByType[t]!++;
        if (readyT.size === 0 || runningByType[t]! >= limit[t]!) eligible.pop();
        else eligible.update(t);
        const w = freeWorkers.pop();
        const d = durations[v]!;
        start[v] = now;
        end[v] = now + d;
        worker[v] = w;
        totalWorkMs += d;
        totalCost += costs[v]!;
        running.push(v);
      }
      if (running.size > peakParallelism) peakParallelism = running.size;
      if (running.size === 0) break;

      // Finish phase: everything ending at the next event time.
      now = end[running.peek()]!;
      makespanMs = now;
      while (running.size > 0 && end[running.peek()] === now) {
        const v = running.pop();
        freeWorkers.push(worker[v]!);
        resolved++;
        const t = types[v]!;
        runningByType[t]!--;
        if (!eligible.has(t) && ready[t]!.size > 0 && runningByType[t]! < limit[t]!) eligible.push(t);
        if (fails !== undefined && fails[v] !== 0) {
          status[v] = TASK_FAILED;
          failedCount++;
          if (firstFailureMs === null) firstFailureMs = now;
          const skipped = skipDescendants(v, now);
          skippedCount += skipped;
          resolved += skipped;
          continue;
        }
        status[v] = TASK_RAN;
        const stop = succOffsets[v + 1]!;
        for (let e = succOffsets[v]!; e < stop; e++) {
          const w = succ[e]!;
          if (--remaining[w]! === 0 && status[w] === PENDING) makeReady(w);
        }
      }
    }

    if (resolved !== n) {
      throw new Error(`schedule: internal error, ${n - resolved} tasks were never resolved`);
    }
    const bound = failedCount === 0 ? lowerBoundMs : Math.max(longestRunChain(), totalWorkMs / workers);
    return {
      start,
      end,
      worker,
      status,
      makespanMs,
      totalWorkMs,
      // Mathematically bound <= makespan; sums taken in another order can differ in the last bits.
      lowerBoundMs: Math.min(bound, makespanMs),
      planLowerBoundMs: lowerBoundMs,
      firstFailureMs,
      criticalPath: cp.path.slice(),
      criticalPathMs: cp.length,
      totalCost,
      failedCount,
      skippedCount,
      peakParallelism,
      utilisation: makespanMs > 0 ? totalWorkMs / (workers * makespanMs) : 0,
    };
  }

  return {
    n,
    workers,
    lowerBoundMs,
    criticalPath: cp.path,
    criticalPathMs: cp.length,
    rank,
    run,
  };
}

/**
 * Dry run of the plan: list scheduling on `workers` workers with optional type
 * limits and injected failures. Pure and deterministic: the same input gives the
 * same result. Throws an Error on a cyclic graph or invalid input.
 */
export function schedule(input: ScheduleInput): ScheduleResult {
  return createScheduler(input).run(input.fails);
}
