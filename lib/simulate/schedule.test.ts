import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWfFormat } from '@/lib/formats/wfformat';
import { buildGraphIndex, type GraphTaskInput } from '@/lib/graph';
import { dagArb, reachMatrix, type SmallGraph } from '@/lib/graph/test-arbitraries';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import {
  createScheduler,
  schedule,
  TASK_FAILED,
  TASK_RAN,
  TASK_SKIPPED,
  type ScheduleInput,
  type ScheduleResult,
} from './schedule';

const RUNS = { numRuns: 500 } as const;
/** Float sums in a different order differ in the last bits. */
const EPS = 1e-6;

function plan(spec: Record<string, string[]>): GraphTaskInput[] {
  return Object.entries(spec).map(([task_id, dependencies]) => ({ task_id, dependencies }));
}

function inputOf(
  tasks: GraphTaskInput[],
  durations: number[],
  extra: Partial<Omit<ScheduleInput, 'index' | 'durations'>> = {},
): ScheduleInput {
  const n = tasks.length;
  return {
    index: buildGraphIndex(tasks),
    durations: Float64Array.from(durations),
    costs: extra.costs ?? new Float64Array(n).fill(1),
    types: extra.types ?? new Uint8Array(n),
    workers: extra.workers ?? 1,
    typeLimits: extra.typeLimits,
    fails: extra.fails,
  };
}

describe('schedule: examples', () => {
  it('runs a chain one task after another', () => {
    const r = schedule(inputOf(plan({ a: [], b: ['a'], c: ['b'] }), [5, 3, 2], { workers: 4 }));
    expect([...r.start]).toEqual([0, 5, 8]);
    expect([...r.end]).toEqual([5, 8, 10]);
    expect([...r.worker]).toEqual([0, 0, 0]);
    expect([...r.status]).toEqual([TASK_RAN, TASK_RAN, TASK_RAN]);
    expect(r).toMatchObject({
      makespanMs: 10,
      totalWorkMs: 10,
      lowerBoundMs: 10,
      criticalPath: [0, 1, 2],
      criticalPathMs: 10,
      totalCost: 3,
      failedCount: 0,
      skippedCount: 0,
      peakParallelism: 1,
      utilisation: 10 / 40,
    });
  });

  it('starts the longest remaining path first, ties to the lower index, on the lowest free worker', () => {
    // a (1) → d (10): rank 11; b (5): rank 5; c (5): rank 5. One worker: a, d, b, c.
    const tasks = plan({ a: [], b: [], c: [], d: ['a'] });
    const one = schedule(inputOf(tasks, [1, 5, 5, 10], { workers: 1 }));
    expect([...one.start]).toEqual([0, 11, 16, 1]);
    // Two workers: a on 0, b on 1; at 1, d takes worker 0; at 5, c takes worker 1.
    const two = schedule(inputOf(tasks, [1, 5, 5, 10], { workers: 2 }));
    expect([...two.start]).toEqual([0, 0, 5, 1]);
    expect([...two.worker]).toEqual([0, 1, 1, 0]);
    expect(two.makespanMs).toBe(11);
    expect(two.peakParallelism).toBe(2);
  });

  it('holds a type at its limit without blocking the other types', () => {
    // Three LLM calls (type 1, limit 2) and one tool call (type 0, lowest rank).
    const tasks = plan({ llm1: [], llm2: [], llm3: [], tool: [] });
    const r = schedule(
      inputOf(tasks, [10, 10, 10, 1], { workers: 4, types: Uint8Array.from([1, 1, 1, 0]), typeLimits: [undefined, 2] }),
    );
    expect([...r.start]).toEqual([0, 0, 10, 0]);
    expect(r.makespanMs).toBe(20);
    expect(r.peakParallelism).toBe(3);
  });

  it('runs a failing task for its full duration and skips everything downstream of it', () => {
    const tasks = plan({ a: [], b: ['a'], c: ['b'], d: [], e: ['c', 'd'], f: ['d'] });
    const fails = Uint8Array.from([0, 1, 0, 0, 0, 0]);
    const r = schedule(inputOf(tasks, [2, 3, 4, 1, 1, 7], { workers: 2, fails, costs: Float64Array.from([1, 2, 4, 8, 16, 32]) }));
    expect([...r.status]).toEqual([TASK_RAN, TASK_FAILED, TASK_SKIPPED, TASK_RAN, TASK_SKIPPED, TASK_RAN]);
    expect(r.end[1]).toBe(5);
    // Skipped at the instant b failed, on no worker.
    expect([r.start[2], r.end[2], r.worker[2]]).toEqual([5, 5, -1]);
    expect([r.start[4], r.end[4], r.worker[4]]).toEqual([5, 5, -1]);
    expect(r.totalCost).toBe(1 + 2 + 8 + 32);
    expect(r.totalWorkMs).toBe(2 + 3 + 1 + 7);
    expect(r.failedCount).toBe(1);
    expect(r.skippedCount).toBe(2);
    expect(r.firstFailureMs).toBe(5);
    // The run's bound counts a, b, d and f only: chain d → f (8) against 13 ms of work on 2 workers.
    expect(r.makespanMs).toBe(8);
    expect(r.lowerBoundMs).toBe(8);
    // The plan's bound (chain a → b → c → e, 10 ms) would exceed the makespan of this run.
    expect(r.planLowerBoundMs).toBe(10);
    expect(r.planLowerBoundMs).toBe(schedule(inputOf(tasks, [2, 3, 4, 1, 1, 7], { workers: 2 })).lowerBoundMs);
  });

  it('skips a task marked to fail when an upstream task fails first', () => {
    const r = schedule(inputOf(plan({ a: [], b: ['a'] }), [1, 1], { fails: Uint8Array.from([1, 1]) }));
    expect([...r.status]).toEqual([TASK_FAILED, TASK_SKIPPED]);
    expect(r.makespanMs).toBe(1);
  });

  it('handles zero durations and the empty plan', () => {
    const r = schedule(inputOf(plan({ a: [], b: ['a'], c: ['b'] }), [0, 0, 0], { workers: 2 }));
    expect([...r.end]).toEqual([0, 0, 0]);
    expect(r).toMatchObject({ makespanMs: 0, lowerBoundMs: 0, utilisation: 0 });
    const empty = schedule(inputOf([], [], { workers: 3 }));
    expect(empty).toMatchObject({ makespanMs: 0, lowerBoundMs: 0, criticalPath: [], peakParallelism: 0, utilisation: 0 });
  });

  it('throws clear errors on cycles and invalid input', () => {
    expect(() => schedule(inputOf(plan({ a: ['b'], b: ['a'] }), [1, 1]))).toThrow(/dependency cycle/);
    const ok = plan({ a: [], b: ['a'] });
    expect(() => schedule(inputOf(ok, [1, 1], { workers: 0 }))).toThrow(/workers must be an integer >= 1/);
    expect(() => schedule(inputOf(ok, [1, 1], { workers: 1.5 }))).toThrow(/workers/);
    expect(() => schedule(inputOf(ok, [1, -1]))).toThrow(/duration of task "b"/);
    expect(() => schedule(inputOf(ok, [1, NaN]))).toThrow(/finite number >= 0/);
    expect(() => schedule(inputOf(ok, [1]))).toThrow(/durations has 1 entries but the graph has 2 tasks/);
    expect(() => schedule(inputOf(ok, [1, 1], { typeLimits: [0] }))).toThrow(/limit of type 0/);
    expect(() => schedule(inputOf(ok, [1, 1], { fails: new Uint8Array(3) }))).toThrow(/fails has 3 entries/);
  });

  it('reuses its buffers across runs of one scheduler with the same results', () => {
    const input = inputOf(plan({ a: [], b: ['a'], c: ['a'], d: ['b', 'c'] }), [1, 2, 3, 4], { workers: 2 });
    const scheduler = createScheduler(input);
    const plain = snapshot(scheduler.run());
    scheduler.run(Uint8Array.from([1, 0, 0, 0]));
    expect(snapshot(scheduler.run())).toEqual(plain);
    expect(Array.from(scheduler.rank)).toEqual([8, 6, 7, 4]);
  });
});

// ---------------------------------------------------------------------------
// Property tests: every result is checked against independent brute-force oracles.

interface Case {
  g: SmallGraph;
  durations: number[];
  types: number[];
  workers: number;
  limits: Array<number | undefined>;
  fails: number[];
}

const TYPES = 3;
const caseArb = (opts: { limits: boolean; failures: boolean }): fc.Arbitrary<Case> =>
  dagArb(30).chain((g) =>
    fc.record({
      g: fc.constant(g),
      // Small integers with many ties and zeros stress the tie-breaking and event order.
      durations: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })), { minLength: g.n, maxLength: g.n }),
      types: fc.array(fc.nat(TYPES - 1), { minLength: g.n, maxLength: g.n }),
      workers: fc.integer({ min: 1, max: 6 }),
      limits: opts.limits
        ? fc.array(fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), { minLength: TYPES, maxLength: TYPES })
        : fc.constant([]),
      fails: opts.failures
        ? fc.array(fc.integer({ min: 0, max: 9 }).map((x) => (x === 0 ? 1 : 0)), { minLength: g.n, maxLength: g.n })
        : fc.constant(new Array<number>(g.n).fill(0)),
    }),
  );

function inputFromCase(c: Case): ScheduleInput {
  return {
    index: buildGraphIndex(c.g.tasks),
    durations: Float64Array.from(c.durations),
    costs: Float64Array.from(c.durations, (d, i) => d + i / 8),
    types: Uint8Array.from(c.types),
    workers: c.workers,
    typeLimits: c.limits,
    fails: Uint8Array.from(c.fails),
  };
}

function snapshot(r: ScheduleResult) {
  return { ...r, start: [...r.start], end: [...r.end], worker: [...r.worker], status: [...r.status] };
}

const ran = (r: ScheduleResult, i: number): boolean => r.status[i] !== TASK_SKIPPED;

/** Tasks occupying a worker at instant t (half-open intervals: zero-length tasks occupy none). */
function runningAt(r: ScheduleResult, n: number, t: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (ran(r, i) && r.start[i]! <= t && t < r.end[i]!) out.push(i);
  return out;
}

/** Every instant at which the set of running tasks can change. */
function eventTimes(r: ScheduleResult, n: number): number[] {
  const ts = new Set<number>([0]);
  for (let i = 0; i < n; i++) {
    ts.add(r.start[i]!);
    ts.add(r.end[i]!);
  }
  return [...ts].sort((a, b) => a - b);
}

function checkFeasible(c: Case, r: ScheduleResult): void {
  const n = c.g.n;
  // Precedence: a task runs only after every prerequisite ran to completion.
  for (const [a, b] of c.g.edges) {
    if (ran(r, b)) {
      expect(r.status[a]).toBe(TASK_RAN);
      expect(r.start[b]).toBeGreaterThanOrEqual(r.end[a]!);
    }
  }
  for (let i = 0; i < n; i++) {
    if (ran(r, i)) {
      expect(r.worker[i]).toBeGreaterThanOrEqual(0);
      expect(r.worker[i]).toBeLessThan(c.workers);
      expect(r.end[i]! - r.start[i]!).toBe(c.durations[i]);
    } else {
      expect(r.worker[i]).toBe(-1);
      expect(r.end[i]).toBe(r.start[i]);
    }
  }
  for (const t of eventTimes(r, n)) {
    const running = runningAt(r, n, t);
    // At most P at once, and never two tasks on one worker.
    expect(running.length).toBeLessThanOrEqual(c.workers);
    expect(new Set(running.map((i) => r.worker[i])).size).toBe(running.length);
    expect(r.peakParallelism).toBeGreaterThanOrEqual(running.length);
    for (let type = 0; type < TYPES; type++) {
      const limit = c.limits[type];
      if (limit !== undefined) expect(running.filter((i) => c.types[i] === type).length).toBeLessThanOrEqual(limit);
    }
  }
  expect(r.peakParallelism).toBeLessThanOrEqual(c.workers);
  // Work-conserving (what makes it list scheduling): from the moment a task is ready
  // until it starts, every worker is busy or its type is at its limit.
  for (let v = 0; v < n; v++) {
    if (!ran(r, v)) continue;
    const readyAt = Math.max(0, ...c.g.edges.filter(([, b]) => b === v).map(([a]) => r.end[a]!));
    for (const t of eventTimes(r, n)) {
      if (t < readyAt || t >= r.start[v]!) continue;
      const running = runningAt(r, n, t);
      const limit = c.limits[c.types[v]!];
      const typeFull = limit !== undefined && running.filter((i) => c.types[i] === c.types[v]).length >= limit;
      expect(running.length === c.workers || typeFull).toBe(true);
    }
  }
  // Totals.
  let work = 0;
  let cost = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    if (!ran(r, i)) continue;
    work += c.durations[i]!;
    cost += c.durations[i]! + i / 8;
    end = Math.max(end, r.end[i]!);
  }
  expect(r.totalWorkMs).toBe(work);
  expect(r.totalCost).toBeCloseTo(cost, 9);
  expect(r.makespanMs).toBe(end);
  expect(r.utilisation).toBeCloseTo(end > 0 ? work / (c.workers * end) : 0, 12);
}

function checkBound(c: Case, r: ScheduleResult): void {
  // The critical path is a chain of edges whose durations sum to criticalPathMs...
  const edges = new Set(c.g.edges.map(([a, b]) => `${a}>${b}`));
  for (let k = 1; k < r.criticalPath.length; k++) {
    expect(edges.has(`${r.criticalPath[k - 1]}>${r.criticalPath[k]}`)).toBe(true);
  }
  expect(r.criticalPath.reduce((s, i) => s + c.durations[i]!, 0)).toBe(r.criticalPathMs);
  // ...and no chain is longer (brute force over the reachability oracle: longest path DP by memo).
  const succ: number[][] = Array.from({ length: c.g.n }, () => []);
  for (const [a, b] of c.g.edges) succ[a]!.push(b);
  const memo = new Map<number, number>();
  const longest = (v: number): number => {
    if (!memo.has(v)) memo.set(v, c.durations[v]! + Math.max(0, ...succ[v]!.map(longest)));
    return memo.get(v)!;
  };
  const cp = Math.max(0, ...Array.from({ length: c.g.n }, (_, v) => longest(v)));
  expect(r.criticalPathMs).toBe(cp);
  const total = c.durations.reduce((s, d) => s + d, 0);
  expect(r.planLowerBoundMs).toBe(Math.max(cp, total / c.workers));
  if (r.failedCount === 0) expect(r.lowerBoundMs).toBe(Math.min(r.planLowerBoundMs, r.makespanMs));
}

/** The bound of the tasks a run ran, by brute force: longest chain of run tasks, their work / P. */
function runBound(c: Case, r: ScheduleResult): number {
  const preds: number[][] = Array.from({ length: c.g.n }, () => []);
  for (const [a, b] of c.g.edges) preds[b]!.push(a);
  const memo = new Map<number, number>();
  const longest = (v: number): number => {
    if (!memo.has(v)) memo.set(v, c.durations[v]! + Math.max(0, ...preds[v]!.filter((p) => ran(r, p)).map(longest)));
    return memo.get(v)!;
  };
  const run = Array.from({ length: c.g.n }, (_, v) => v).filter((v) => ran(r, v));
  const work = run.reduce((s, v) => s + c.durations[v]!, 0);
  return Math.max(0, ...run.map(longest), work / c.workers);
}

/** Durations with fractions, ties and zeros: float sums are where a bound could creep over. */
const fractionalCaseArb = caseArb({ limits: true, failures: true }).chain((c) =>
  fc
    .array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true })), {
      minLength: c.g.n,
      maxLength: c.g.n,
    })
    .map((durations) => ({ ...c, durations })),
);

describe('schedule: the lower bound of a run', () => {
  it('counts only the tasks that run, so it never exceeds the makespan, for any DAG, workers, limits and failures', () => {
    fc.assert(
      fc.property(fc.oneof(caseArb({ limits: true, failures: true }), fractionalCaseArb), (c) => {
        const r = schedule(inputFromCase(c));
        expect(r.lowerBoundMs).toBeLessThanOrEqual(r.makespanMs);
        // The clamp to the makespan only ever absorbs rounding: the brute-force bound agrees.
        const exact = runBound(c, r);
        expect(exact).toBeLessThanOrEqual(r.makespanMs * (1 + 1e-12) + EPS);
        expect(Math.abs(r.lowerBoundMs - Math.min(exact, r.makespanMs))).toBeLessThanOrEqual(Math.max(EPS, exact * 1e-12));
        expect(r.lowerBoundMs).toBeLessThanOrEqual(r.planLowerBoundMs + EPS);
        const failedAt = Array.from({ length: c.g.n }, (_, v) => v).filter((v) => r.status[v] === TASK_FAILED).map((v) => r.end[v]!);
        expect(r.firstFailureMs).toBe(failedAt.length ? Math.min(...failedAt) : null);
        expect(snapshot(schedule(inputFromCase(c)))).toEqual(snapshot(r));
      }),
      RUNS,
    );
  });
});

describe('schedule: properties on random DAGs', () => {
  it('is feasible, deterministic and within its bounds without failures or limits (Graham)', () => {
    fc.assert(
      fc.property(caseArb({ limits: false, failures: false }), (c) => {
        const input = inputFromCase(c);
        const r = schedule(input);
        checkFeasible(c, r);
        checkBound(c, r);
        expect([...r.status].every((s) => s === TASK_RAN)).toBe(true);
        expect(r.makespanMs).toBeGreaterThanOrEqual(r.lowerBoundMs - EPS);
        expect(r.makespanMs).toBeLessThanOrEqual(r.totalWorkMs / c.workers + r.criticalPathMs + EPS);
        expect(snapshot(schedule(inputFromCase(c)))).toEqual(snapshot(r));
      }),
      RUNS,
    );
  });

  it('respects per-type limits and stays above the lower bound with them', () => {
    fc.assert(
      fc.property(caseArb({ limits: true, failures: false }), (c) => {
        const r = schedule(inputFromCase(c));
        checkFeasible(c, r);
        checkBound(c, r);
        expect(r.makespanMs).toBeGreaterThanOrEqual(r.lowerBoundMs - EPS);
        expect(snapshot(schedule(inputFromCase(c)))).toEqual(snapshot(r));
      }),
      RUNS,
    );
  });

  it('skips exactly the descendants of failing tasks, and fails the others that were marked', () => {
    fc.assert(
      fc.property(caseArb({ limits: true, failures: true }), (c) => {
        const r = schedule(inputFromCase(c));
        checkFeasible(c, r);
        const reach = reachMatrix(c.g);
        const marked = c.fails.flatMap((f, i) => (f ? [i] : []));
        for (let v = 0; v < c.g.n; v++) {
          const downstream = marked.some((f) => reach[f]![v]);
          const expected = downstream ? TASK_SKIPPED : c.fails[v] ? TASK_FAILED : TASK_RAN;
          expect(r.status[v]).toBe(expected);
        }
        // Skipped at the instant an upstream task failed.
        for (let v = 0; v < c.g.n; v++) {
          if (r.status[v] !== TASK_SKIPPED) continue;
          const failedAbove = marked.filter((f) => reach[f]![v] && r.status[f] === TASK_FAILED).map((f) => r.end[f]!);
          expect(r.start[v]).toBe(Math.min(...failedAbove));
        }
        expect(r.failedCount).toBe([...r.status].filter((s) => s === TASK_FAILED).length);
        expect(r.skippedCount).toBe([...r.status].filter((s) => s === TASK_SKIPPED).length);
        expect(snapshot(schedule(inputFromCase(c)))).toEqual(snapshot(r));
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------

describe('schedule on the WfCommons traces', () => {
  for (const [name, file] of Object.entries(WFCOMMONS_TRACES)) {
    const wf = parseWfFormat(readFileSync(path.join(wfcommonsDir(), file), 'utf8'));
    const n = wf.tasks.length;
    const base = {
      index: buildGraphIndex(wf.tasks),
      durations: Float64Array.from(wf.tasks, (t) => t.runtime_ms ?? 0),
      costs: new Float64Array(n),
      types: new Uint8Array(n),
    };

    for (const workers of [1, 4, 16, 48]) {
      it(`${name} on ${workers} workers: lower bound <= makespan <= work / P + critical path`, () => {
        const r = schedule({ ...base, workers });
        expect(r.status.every((s) => s === TASK_RAN)).toBe(true);
        expect(r.makespanMs).toBeGreaterThanOrEqual(r.lowerBoundMs - EPS);
        expect(r.makespanMs).toBeLessThanOrEqual(r.totalWorkMs / workers + r.criticalPathMs + EPS);
        expect(r.peakParallelism).toBeLessThanOrEqual(workers);
        // Precedence on the real graph.
        const { predOffsets, pred } = base.index;
        let violations = 0;
        for (let v = 0; v < n; v++) {
          for (let e = predOffsets[v]!; e < predOffsets[v + 1]!; e++) if (r.start[v]! < r.end[pred[e]!]!) violations++;
        }
        expect(violations).toBe(0);
        if (workers === 1) expect(r.makespanMs).toBe(r.totalWorkMs);
        if (name === 'montage' && workers === 48) expect(r.makespanMs).toBeLessThanOrEqual(1.25 * r.lowerBoundMs);
      });
    }
  }
});
