/**
 * Benchmark of lib/graph on synthetic plans and on the WfCommons traces.
 *
 * Run: `npm run bench` (or `npx tsx scripts/bench.ts`). Prints one JSON document
 * to stdout; progress goes to stderr so the output can be piped into a file.
 *
 * The target is validate_core (index + cycle check + topological order + waves)
 * on a 100k-task / 300k-edge plan under 100 ms: the editor revalidates the whole
 * plan on each change, so that is the budget for the largest plans we accept.
 *
 * Options (environment):
 *   BENCH_RUNS        timed runs per measurement (median reported), default 15
 *   PLANGATE_WFCOMMONS_DIR  folder holding the WfCommons traces (see wfcommons-traces.ts)
 *
 * The dry-run figures (lib/simulate) have their own targets: scheduling the 100k-task
 * plan on 16 workers under 300 ms, and 1,000 Monte Carlo runs of the montage trace
 * (2,122 tasks) under 5 s.
 *
 * The automatic layout (lib/layout/elk-graph with elkjs, here in Node rather than the
 * editor's Web Worker) has the editor's target: 1,000 tasks under 3 s. The rule-based
 * SubGraph optimiser's figures on the WfCommons traces are printed for comparison; its
 * target is the server's (scripts/bench-server.ts). The unit tests check what these
 * produce; the time they take is measured here only.
 */

import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { fromElkResult, LARGE_GRAPH_TASKS, NODE_SIZE, toElkGraph, type LayoutTask, type XYPosition } from '../lib/layout/elk-graph';
import { layoutPositions } from '../lib/layout/wrap-layers';
import {
  buildGraphIndex,
  criticalPath,
  findCycle,
  redundantEdges,
  topologicalOrder,
  waves,
  type GraphIndex,
} from '../lib/graph';
import { parseWfFormat } from '../lib/formats/wfformat';
import { optimizeSubgraphs } from '../lib/optimize/rule-based-optimizer';
import { monteCarlo } from '../lib/simulate/monte-carlo';
import { schedule } from '../lib/simulate/schedule';
import { syntheticPlan, type BenchTask } from './synthetic-plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from './wfcommons-traces';

const TARGET_MS = 100;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 15) | 0);
const WARMUP = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function time(fn: () => unknown, runs = RUNS, warmup = WARMUP): number {
  for (let k = 0; k < warmup; k++) fn();
  const samples: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return Number(median(samples).toFixed(3));
}

// `npm run bench` cannot pass --expose-gc, so enable it at run time: heap figures
// taken right after a full collection measure what is live, not leftover garbage.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (() => void) | undefined;

const mb = (bytes: number): number => Number((bytes / 2 ** 20).toFixed(1));
function memory(): { heap_used_mb: number; array_buffers_mb: number } {
  gc?.();
  const usage = process.memoryUsage();
  // Typed arrays live outside the JS heap, so the CSR index shows up under arrayBuffers.
  return { heap_used_mb: mb(usage.heapUsed), array_buffers_mb: mb(usage.arrayBuffers) };
}

function validateCore(tasks: readonly BenchTask[]): number {
  const index = buildGraphIndex(tasks);
  if (findCycle(index) !== null) throw new Error('bench: validate_core found a cycle in a DAG');
  const order = topologicalOrder(index);
  if (order === null) throw new Error('bench: validate_core found no topological order');
  return waves(index, order)!.length;
}

function indexBytes(index: GraphIndex): number {
  return (
    index.succOffsets.byteLength + index.succ.byteLength + index.predOffsets.byteLength + index.pred.byteLength
  );
}

function benchDataset(name: string, kind: string, tasks: BenchTask[]) {
  process.stderr.write(`bench: ${name} (${tasks.length} tasks)\n`);
  const index = buildGraphIndex(tasks);
  const order = topologicalOrder(index);
  if (order === null) throw new Error(`bench: ${name} is cyclic`);
  const duration = (i: number): number => tasks[i]?.runtime_ms ?? 0;
  const cp = criticalPath(index, duration, order)!;
  const redundant = redundantEdges(index, order);
  const waveCount = waves(index, order)!.length;
  const memoryWithIndex = memory();
  // redundantEdges is the one super-linear algorithm; fewer runs keep the bench short.
  const slowRuns = Math.max(3, Math.ceil(RUNS / 3));

  const median_ms = {
    buildGraphIndex: time(() => buildGraphIndex(tasks)),
    findCycle: time(() => findCycle(index)),
    topologicalOrder: time(() => topologicalOrder(index)),
    waves: time(() => waves(index)),
    criticalPath: time(() => criticalPath(index, duration)),
    redundantEdges: time(() => redundantEdges(index), slowRuns, 1),
    validate_core: time(() => validateCore(tasks)),
  };
  return {
    name,
    kind,
    nodes: index.n,
    edges: index.edgeCount,
    waves: waveCount,
    critical_path: { tasks: cp.path.length, length_ms: cp.length },
    redundant_edges: redundant.length,
    index_typed_arrays_mb: Number((indexBytes(index) / 2 ** 20).toFixed(2)),
    memory_with_index: memoryWithIndex,
    median_ms,
  };
}

const SCHEDULE_TARGET_MS = 300;
const MONTE_CARLO_TARGET_MS = 5000;
const SCHEDULE_WORKERS = 16;
const MONTE_CARLO_RUNS = 1000;
const MONTE_CARLO_WORKERS = 48;

/** Plain inputs for the scheduler: measured runtimes as durations, one type, unit costs. */
function simulationInput(tasks: readonly BenchTask[]) {
  const index = buildGraphIndex(tasks);
  return {
    index,
    durations: Float64Array.from(tasks, (t) => t.runtime_ms ?? 0),
    costs: new Float64Array(index.n).fill(0.001),
    types: new Uint8Array(index.n),
  };
}

/** Dry run (lib/simulate): one list schedule of the big plan, and Monte Carlo on a real trace. */
function benchDryRun(big: BenchTask[], montage: BenchTask[]) {
  process.stderr.write('bench: dry run (schedule, monte carlo)\n');
  const bigInput = { ...simulationInput(big), workers: SCHEDULE_WORKERS };
  const plain = schedule(bigInput);
  const scheduleMs = time(() => schedule(bigInput));

  const mcInput = {
    ...simulationInput(montage),
    workers: MONTE_CARLO_WORKERS,
    failureProbability: 0.01,
    runs: MONTE_CARLO_RUNS,
    seed: 1,
  };
  const mc = monteCarlo(mcInput);
  // Each sample is a thousand schedules; a few are enough for a stable median.
  const monteCarloMs = time(() => monteCarlo(mcInput), Math.min(RUNS, 5), 1);

  return {
    target: { schedule_100k_ms: SCHEDULE_TARGET_MS, monte_carlo_montage_ms: MONTE_CARLO_TARGET_MS },
    schedule_100k: {
      tasks: bigInput.index.n,
      edges: bigInput.index.edgeCount,
      workers: SCHEDULE_WORKERS,
      makespan_ms: plain.makespanMs,
      lower_bound_ms: plain.lowerBoundMs,
      makespan_over_lower_bound: Number((plain.makespanMs / plain.lowerBoundMs).toFixed(4)),
      median_ms: scheduleMs,
      meets_target: scheduleMs < SCHEDULE_TARGET_MS,
    },
    monte_carlo_montage: {
      tasks: mcInput.index.n,
      workers: MONTE_CARLO_WORKERS,
      runs: MONTE_CARLO_RUNS,
      failure_probability: mcInput.failureProbability,
      makespan_ms: mc.makespan,
      failed_runs: mc.failedRuns,
      skipped_mean: mc.skippedMean,
      median_ms: monteCarloMs,
      meets_target: monteCarloMs < MONTE_CARLO_TARGET_MS,
    },
  };
}

const LAYOUT_TARGET_MS = 3000;
const LAYOUT_RUNS = 3;

/** Median time of an async measurement (layouts take seconds: a few runs, one warm-up). */
async function timeAsync(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return Math.round(median(samples));
}

/** Size of the picture a layout draws, in px, and its aspect ratio (width / height). */
function picture(positions: Record<string, XYPosition>) {
  let [width, height] = [0, 0];
  for (const { x, y } of Object.values(positions)) [width, height] = [Math.max(width, x + NODE_SIZE.width), Math.max(height, y + NODE_SIZE.height)];
  return { width, height, aspect: Number((width / height).toFixed(3)) };
}

/**
 * The editor's automatic layout, as the worker runs it: the ELK graph, ELK's layout,
 * the positions read back and, above LARGE_GRAPH_TASKS tasks, refitted to a screen's
 * shape. `picture` is the drawing's size as ELK returned it and as the canvas shows it;
 * `fit_median_ms` is the share of `median_ms` spent reading the positions back and
 * refitting them.
 */
async function benchLayout(montage: BenchTask[]) {
  const elk = new ELK();
  let laidOut: ElkNode = { id: 'root' };
  const layout = async (tasks: readonly LayoutTask[]) => {
    laidOut = await elk.layout(toElkGraph(tasks, { nodeSize: NODE_SIZE }));
    return layoutPositions(laidOut, NODE_SIZE);
  };
  const cases: Array<[string, LayoutTask[]]> = [
    ['synthetic-1000', syntheticPlan(1_000, 1)],
    [`synthetic-${LARGE_GRAPH_TASKS} (the largest with the detailed options)`, syntheticPlan(LARGE_GRAPH_TASKS, 6)],
    ['chain-10000', Array.from({ length: 10_000 }, (_, i) => ({ task_id: `c${i}`, dependencies: i ? [`c${i - 1}`] : [] }))],
    ['wfcommons-montage', montage],
  ];
  const rows = [];
  for (const [name, tasks] of cases) {
    process.stderr.write(`bench: layout ${name}\n`);
    const median_ms = await timeAsync(() => layout(tasks), LAYOUT_RUNS);
    const result = laidOut;
    rows.push({
      name,
      tasks: tasks.length,
      edges: tasks.reduce((sum, t) => sum + t.dependencies.length, 0),
      median_ms,
      picture: { elk: picture(fromElkResult(result)), shown: picture(layoutPositions(result, NODE_SIZE)) },
      fit_median_ms: time(() => layoutPositions(result, NODE_SIZE)),
    });
  }
  const at1000 = rows[0]!.median_ms;
  return { target: { layout_1000_ms: LAYOUT_TARGET_MS }, layout_1000_ms: at1000, meets_target: at1000 < LAYOUT_TARGET_MS, runs: LAYOUT_RUNS, cases: rows };
}

/** The rule-based SubGraph optimiser on each WfCommons trace, at the worker counts its unit tests check. */
function benchOptimize(traces: Map<string, BenchTask[]>) {
  process.stderr.write('bench: rule-based optimiser on the WfCommons traces\n');
  return [...traces].flatMap(([file, tasks]) => {
    const index = buildGraphIndex(tasks);
    const durations = Float64Array.from(tasks, (t) => t.runtime_ms ?? 0);
    return [1, 4, 16, 48].map((workers) => {
      const { report } = optimizeSubgraphs(tasks, index, durations, workers);
      const median_ms = time(() => optimizeSubgraphs(tasks, index, durations, workers), Math.min(RUNS, 5), 1);
      return { trace: file.replace(/\.json$/, ''), tasks: tasks.length, workers, subgraphs: report.subgraphs, dispatches_saved: report.dispatches_saved, median_ms };
    });
  });
}

async function main(): Promise<void> {
  const datasets: Array<ReturnType<typeof benchDataset>> = [];
  datasets.push(benchDataset('synthetic-10k', 'synthetic', syntheticPlan(10_000, 1)));
  const synthetic100k = syntheticPlan(100_000, 2);
  datasets.push(benchDataset('synthetic-100k', 'synthetic', synthetic100k));

  const traces = wfcommonsDir();
  const traceTasks = new Map<string, BenchTask[]>();
  for (const file of Object.values(WFCOMMONS_TRACES).sort()) {
    const wf = parseWfFormat(readFileSync(path.join(traces, file), 'utf8'));
    traceTasks.set(file, wf.tasks);
    datasets.push(benchDataset(file.replace(/\.json$/, ''), 'wfcommons', wf.tasks));
  }
  const dryRun = benchDryRun(synthetic100k, traceTasks.get(WFCOMMONS_TRACES.montage)!);
  const layout = await benchLayout(traceTasks.get(WFCOMMONS_TRACES.montage)!);
  const optimize = benchOptimize(traceTasks);

  const big = datasets.find((d) => d.name === 'synthetic-100k')!;
  const report = {
    generated_at: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      gc_exposed: gc !== undefined,
    },
    method: { runs: RUNS, warmup: WARMUP, statistic: 'median', unit: 'ms' },
    target: { validate_core_100k_ms: TARGET_MS },
    validate_core_100k_ms: big.median_ms.validate_core,
    meets_target: big.median_ms.validate_core < TARGET_MS,
    datasets,
    dry_run: dryRun,
    layout,
    optimize_wfcommons: optimize,
    memory_at_end: memory(),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
