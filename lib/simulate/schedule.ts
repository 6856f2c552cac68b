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
 * Data structures, all typed arrays allocated once per scheduler:
 * - one binary max-heap of ready tasks per type code, packed side by side in one
 *   Int32Array (each type's segment is sized by its task count);
 * - a max-heap over the type codes that have ready tasks and are under their
 *   limit, keyed by their best ready task (so choosing the next task is O(log K));
 * - a min-heap of running tasks by end time (ties: lower task index);
 * - a min-heap of free worker ids.
 *
 * Complexity: O((T + E) log T) time per run for T tasks and E edges, O(T + P)
 * memory. `createScheduler` does the run-independent work once (topological
 * order, ranks, critical path, lower bound), so Monte Carlo reuses it.
 *
 * Failures: a task marked to fail runs for its full duration and then fails; all
 * of its descendants are skipped at that instant (status skipped, worker -1,
 * start = end = the failure time) and never run.
 */

import { criticalPath as longestPath } from '../graph/critical-path';
import type { GraphIndex } from '../graph/index-build';
import { topologicalOrder } from '../graph/topological-order';

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
   * max(critical path length, total duration of all tasks / P), on the plan as
   * given (failures ignored): no schedule of the full plan can be shorter.
   */
  lowerBoundMs: number;
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
  const { n, succOffsets, succ, predOffsets } = index;
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

  // Ready heaps: type t owns readyHeap[typeBase[t] .. typeBase[t + 1]).
  const typeBase = new Int32Array(TYPE_CODES + 1);
  for (let v = 0; v < n; v++) typeBase[types[v]! + 1]!++;
  for (let t = 0; t < TYPE_CODES; t++) typeBase[t + 1]! += typeBase[t]!;
  const readyHeap = new Int32Array(n);
  const readySize = new Int32Array(TYPE_CODES);
  const runningByType = new Int32Array(TYPE_CODES);
  // Heap of eligible type codes (ready tasks, under their limit), best head first.
  const metaHeap = new Int32Array(TYPE_CODES);
  const metaPos = new Int32Array(TYPE_CODES);
  const runningHeap = new Int32Array(workers);
  const freeWorkers = new Int32Array(workers);
  const remaining = new Int32Array(n);
  const stack = new Int32Array(n);

  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const worker = new Int32Array(n);
  const status = new Uint8Array(n);

  /** Task a goes before task b: higher rank, then lower index. */
  const before = (a: number, b: number): boolean => {
    const ra = rank[a]!;
    const rb = rank[b]!;
    return ra > rb || (ra === rb && a < b);
  };

  function readyPush(t: number, v: number): void {
    const base = typeBase[t]!;
    let i = readySize[t]!++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = readyHeap[base + p]!;
      if (!before(v, u)) break;
      readyHeap[base + i] = u;
      i = p;
    }
    readyHeap[base + i] = v;
  }

  function readyPop(t: number): number {
    const base = typeBase[t]!;
    const top = readyHeap[base]!;
    const size = --readySize[t]!;
    if (size > 0) {
      const v = readyHeap[base + size]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        let c = l;
        const r = l + 1;
        if (r < size && before(readyHeap[base + r]!, readyHeap[base + l]!)) c = r;
        const u = readyHeap[base + c]!;
        if (!before(u, v)) break;
        readyHeap[base + i] = u;
        i = c;
      }
      readyHeap[base + i] = v;
    }
    return top;
  }

  let metaSize = 0;
  /** Type a's best ready task goes before type b's. */
  const typeBefore = (a: number, b: number): boolean => before(readyHeap[typeBase[a]!]!, readyHeap[typeBase[b]!]!);

  function metaSiftUp(i: number): void {
    const t = metaHeap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = metaHeap[p]!;
      if (!typeBefore(t, u)) break;
      metaHeap[i] = u;
      metaPos[u] = i;
      i = p;
    }
    metaHeap[i] = t;
    metaPos[t] = i;
  }

  function metaSiftDown(i: number): void {
    const t = metaHeap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= metaSize) break;
      let c = l;
      const r = l + 1;
      if (r < metaSize && typeBefore(metaHeap[r]!, metaHeap[l]!)) c = r;
      const u = metaHeap[c]!;
      if (!typeBefore(u, t)) break;
      metaHeap[i] = u;
      metaPos[u] = i;
      i = c;
    }
    metaHeap[i] = t;
    metaPos[t] = i;
  }

  function metaInsert(t: number): void {
    metaHeap[metaSize] = t;
    metaSiftUp(metaSize++);
  }

  function metaRemoveTop(): void {
    metaPos[metaHeap[0]!] = -1;
    if (--metaSize > 0) {
      metaHeap[0] = metaHeap[metaSize]!;
      metaSiftDown(0);
    }
  }

  /** Makes v ready; its type becomes eligible when under its limit. */
  function makeReady(v: number): void {
    const t = types[v]!;
    readyPush(t, v);
    const pos = metaPos[t]!;
    if (pos >= 0) metaSiftUp(pos);
    else if (runningByType[t]! < limit[t]!) metaInsert(t);
  }

  let runningSize = 0;
  const endsBefore = (a: number, b: number): boolean => {
    const ea = end[a]!;
    const eb = end[b]!;
    return ea < eb || (ea === eb && a < b);
  };

  function runningPush(v: number): void {
    let i = runningSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = runningHeap[p]!;
      if (!endsBefore(v, u)) break;
      runningHeap[i] = u;
      i = p;
    }
    runningHeap[i] = v;
  }

  function runningPop(): number {
    const top = runningHeap[0]!;
    const size = --runningSize;
    if (size > 0) {
      const v = runningHeap[size]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        let c = l;
        const r = l + 1;
        if (r < size && endsBefore(runningHeap[r]!, runningHeap[l]!)) c = r;
        const u = runningHeap[c]!;
        if (!endsBefore(u, v)) break;
        runningHeap[i] = u;
        i = c;
      }
      runningHeap[i] = v;
    }
    return top;
  }

  let freeSize = 0;
  function workerPush(w: number): void {
    let i = freeSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = freeWorkers[p]!;
      if (u <= w) break;
      freeWorkers[i] = u;
      i = p;
    }
    freeWorkers[i] = w;
  }

  function workerPop(): number {
    const top = freeWorkers[0]!;
    const size = --freeSize;
    if (size > 0) {
      const w = freeWorkers[size]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        let c = l;
        const r = l + 1;
        if (r < size && freeWorkers[r]! < freeWorkers[l]!) c = r;
        const u = freeWorkers[c]!;
        if (u >= w) break;
        freeWorkers[i] = u;
        i = c;
      }
      freeWorkers[i] = w;
    }
    return top;
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

  function run(fails?: Uint8Array): ScheduleResult {
    if (fails !== undefined) checkLength('fails', fails, n);
    remaining.set(indegree);
    status.fill(PENDING);
    readySize.fill(0);
    runningByType.fill(0);
    metaPos.fill(-1);
    metaSize = 0;
    runningSize = 0;
    // 0, 1, ..., P-1 is already a valid min-heap.
    for (let w = 0; w < workers; w++) freeWorkers[w] = w;
    freeSize = workers;

    for (let v = 0; v < n; v++) if (remaining[v] === 0) makeReady(v);

    let now = 0;
    let resolved = 0;
    let makespanMs = 0;
    let totalWorkMs = 0;
    let totalCost = 0;
    let peakParallelism = 0;
    let failedCount = 0;
    let skippedCount = 0;

    for (;;) {
      // Start phase: best eligible task on the lowest free worker, while both last.
      while (freeSize > 0 && metaSize > 0) {
        const t = metaHeap[0]!;
        const v = readyPop(t);
        runningByType[t]!++;
        if (readySize[t] === 0 || runningByType[t]! >= limit[t]!) metaRemoveTop();
        else metaSiftDown(0);
        const w = workerPop();
        const d = durations[v]!;
        start[v] = now;
        end[v] = now + d;
        worker[v] = w;
        totalWorkMs += d;
        totalCost += costs[v]!;
        runningPush(v);
      }
      if (runningSize > peakParallelism) peakParallelism = runningSize;
      if (runningSize === 0) break;

      // Finish phase: everything ending at the next event time.
      now = end[runningHeap[0]!]!;
      makespanMs = now;
      while (runningSize > 0 && end[runningHeap[0]!] === now) {
        const v = runningPop();
        workerPush(worker[v]!);
        resolved++;
        const t = types[v]!;
        runningByType[t]!--;
        if (metaPos[t]! < 0 && readySize[t]! > 0 && runningByType[t]! < limit[t]!) metaInsert(t);
        if (fails !== undefined && fails[v] !== 0) {
          status[v] = TASK_FAILED;
          failedCount++;
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
    return {
      start,
      end,
      worker,
      status,
      makespanMs,
      totalWorkMs,
      lowerBoundMs,
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
