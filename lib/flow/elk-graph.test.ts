/**
 * Checks the ELK translation by running real ELK layouts in Node and asserting what
 * a user sees: every task placed, prerequisites left of dependents, no overlapping
 * boxes, and malformed dependency lists tolerated. The large cases also print their
 * layout time; speed itself is judged by benchmarks, not asserted here.
 */

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { parseWfFormat } from '../formats/wfformat';
import {
  fromElkResult,
  LARGE_GRAPH_TASKS,
  layoutOptionsFor,
  NODE_SIZE,
  toElkGraph,
  type LayoutTask,
  type NodeSize,
  type XYPosition,
} from './elk-graph';

const MONTAGE = fileURLToPath(
  new URL('../../../shared/benchmarks/wfcommons/montage-chameleon-dss-15d-001.json', import.meta.url),
);

const elk = new ELK();

async function layout(tasks: ReadonlyArray<LayoutTask>, nodeSize: NodeSize = NODE_SIZE) {
  const started = performance.now();
  const positions = fromElkResult(await elk.layout(toElkGraph(tasks, { nodeSize })));
  return { positions, ms: Math.round(performance.now() - started) };
}

/** Every distinct task id has a finite, whole-pixel position and nothing else does. */
function expectEveryTaskPlaced(tasks: ReadonlyArray<LayoutTask>, positions: Record<string, XYPosition>) {
  const ids = new Set(tasks.map((t) => t.task_id));
  expect(new Set(Object.keys(positions))).toEqual(ids);
  for (const { x, y } of Object.values(positions)) {
    expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
  }
}

/** Count of dependency edges whose dependent is not strictly right of its prerequisite. */
function backwardEdges(tasks: ReadonlyArray<LayoutTask>, positions: Record<string, XYPosition>): string[] {
  const bad: string[] = [];
  for (const task of tasks) {
    for (const dep of task.dependencies) {
      if (dep === task.task_id || !(dep in positions)) continue;
      if (positions[task.task_id]!.x <= positions[dep]!.x) bad.push(`${dep} -> ${task.task_id}`);
    }
  }
  return bad;
}

/** Pairs of node boxes that overlap (sweep over x, so large layouts stay cheap). */
function overlaps(positions: Record<string, XYPosition>, { width, height }: NodeSize): string[] {
  const boxes = Object.entries(positions).sort((a, b) => a[1].x - b[1].x);
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    const [idA, a] = boxes[i]!;
    for (let j = i + 1; j < boxes.length && boxes[j]![1].x < a.x + width; j++) {
      const [idB, b] = boxes[j]!;
      if (b.y < a.y + height && a.y < b.y + height) found.push(`${idA} / ${idB}`);
    }
  }
  return found;
}

function expectReadable(tasks: ReadonlyArray<LayoutTask>, positions: Record<string, XYPosition>, size = NODE_SIZE) {
  expectEveryTaskPlaced(tasks, positions);
  expect(backwardEdges(tasks, positions)).toEqual([]);
  expect(overlaps(positions, size)).toEqual([]);
}

/** mulberry32, as in scripts/bench.ts, so the graphs are the same on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The plan-like DAG of scripts/bench.ts: 0–6 dependencies per task (3 on average),
 * mostly within the previous 64 tasks, 5% reaching anywhere back.
 */
function syntheticPlan(n: number, seed: number): LayoutTask[] {
  const random = rng(seed);
  const tasks: LayoutTask[] = [];
  for (let i = 0; i < n; i++) {
    const want = Math.min(i, Math.floor(random() * 7));
    const deps = new Set<number>();
    while (deps.size < want) {
      const span = random() < 0.05 ? i : Math.min(i, 64);
      deps.add(i - 1 - Math.floor(random() * span));
    }
    tasks.push({ task_id: `task-${i}`, dependencies: Array.from(deps, (d) => `task-${d}`) });
  }
  return tasks;
}

/** A small plan with pipelines, a fan-out, a fan-in, a long edge and a loose task. */
const RESEARCH_PLAN: LayoutTask[] = [
  { task_id: 'setup', dependencies: [] },
  { task_id: 'fetch', dependencies: ['setup'] },
  { task_id: 'parse-a', dependencies: ['fetch'] },
  { task_id: 'parse-b', dependencies: ['fetch'] },
  { task_id: 'clean-a', dependencies: ['parse-a'] },
  { task_id: 'clean-b', dependencies: ['parse-b'] },
  { task_id: 'merge', dependencies: ['clean-a', 'clean-b'] },
  { task_id: 'report', dependencies: ['merge', 'setup'] },
  { task_id: 'unrelated', dependencies: [] },
];

describe('toElkGraph', () => {
  it('makes one fixed-size child per task and one edge per dependency, prerequisite first', () => {
    const graph = toElkGraph(RESEARCH_PLAN);
    expect(graph.children?.map((c) => [c.id, c.width, c.height])).toEqual(
      RESEARCH_PLAN.map((t) => [t.task_id, NODE_SIZE.width, NODE_SIZE.height]),
    );
    const edges = graph.edges?.map((e) => `${e.sources.join()}->${e.targets.join()}`);
    expect(edges).toEqual(RESEARCH_PLAN.flatMap((t) => t.dependencies.map((d) => `${d}->${t.task_id}`)));
    expect(new Set(graph.edges?.map((e) => e.id)).size).toBe(edges?.length);
    expect(graph.layoutOptions).toMatchObject({ 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT' });
  });

  it('keeps the first of duplicate tasks and drops missing, self and repeated dependencies', () => {
    const graph = toElkGraph([
      { task_id: 'a', dependencies: ['a', 'ghost'] },
      { task_id: 'b', dependencies: ['a', 'a', 'b'] },
      { task_id: 'a', dependencies: ['b'] },
    ]);
    expect(graph.children?.map((c) => c.id)).toEqual(['a', 'b']);
    expect(graph.edges?.map((e) => [e.sources, e.targets])).toEqual([[['a'], ['b']]]);
  });

  it('uses the requested node size', () => {
    const graph = toElkGraph([{ task_id: 'a', dependencies: [] }], { nodeSize: { width: 100, height: 30 } });
    expect(graph.children?.[0]).toMatchObject({ width: 100, height: 30 });
  });

  it('switches to the fast option set above LARGE_GRAPH_TASKS tasks', () => {
    const small = layoutOptionsFor(LARGE_GRAPH_TASKS);
    const large = layoutOptionsFor(LARGE_GRAPH_TASKS + 1);
    expect(small['elk.layered.nodePlacement.strategy']).toBe('BRANDES_KOEPF');
    expect(large['elk.layered.nodePlacement.strategy']).toBe('SIMPLE');
    for (const options of [small, large]) {
      expect(options).toMatchObject({ 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT' });
    }
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS + 1, 1);
    expect(toElkGraph(tasks).layoutOptions).toEqual(large);
  });
});

describe('fromElkResult', () => {
  it('reads whole-pixel top-left positions of the top-level children', () => {
    const positions = fromElkResult({
      id: 'root',
      children: [
        { id: 'a', x: 10.4, y: 20.6 },
        { id: '__proto__', x: 1, y: 2 },
        { id: 'b' },
      ],
    });
    expect(positions['a']).toEqual({ x: 10, y: 21 });
    expect(positions['__proto__']).toEqual({ x: 1, y: 2 });
    expect(positions['b']).toEqual({ x: 0, y: 0 });
    expect(Object.keys(positions)).toEqual(['a', '__proto__', 'b']);
  });
});

describe('ELK layout of toElkGraph output', () => {
  it('places a small plan left to right without overlaps', async () => {
    const { positions } = await layout(RESEARCH_PLAN);
    expectReadable(RESEARCH_PLAN, positions);
  });

  it('respects a custom node size', async () => {
    const size = { width: 120, height: 200 };
    const { positions } = await layout(RESEARCH_PLAN, size);
    expectReadable(RESEARCH_PLAN, positions, size);
  });

  it('survives duplicate tasks and missing, self and repeated dependencies', async () => {
    const tasks: LayoutTask[] = [
      { task_id: 'a', dependencies: ['a', 'nowhere'] },
      { task_id: 'b', dependencies: ['a', 'a', 'b'] },
      { task_id: 'a', dependencies: ['b'] },
      { task_id: 'c', dependencies: ['b', 'missing', 'c'] },
    ];
    const { positions } = await layout(tasks);
    expect(Object.keys(positions).sort()).toEqual(['a', 'b', 'c']);
    expect(positions['a']!.x).toBeLessThan(positions['b']!.x);
    expect(positions['b']!.x).toBeLessThan(positions['c']!.x);
    expect(overlaps(positions, NODE_SIZE)).toEqual([]);
  });

  it('lays out an empty plan and a single task', async () => {
    expect((await layout([])).positions).toEqual({});
    expect((await layout([{ task_id: 'only', dependencies: [] }])).positions).toEqual({ only: { x: 0, y: 0 } });
  });

  it('lays out disconnected sub-plans without overlaps, in both option sets', async () => {
    const copies = (count: number) =>
      Array.from({ length: count }, (_, k) =>
        RESEARCH_PLAN.map((t) => ({ task_id: `${k}:${t.task_id}`, dependencies: t.dependencies.map((d) => `${k}:${d}`) })),
      ).flat();
    for (const tasks of [copies(3), copies(Math.ceil((LARGE_GRAPH_TASKS + 1) / RESEARCH_PLAN.length))]) {
      const { positions } = await layout(tasks);
      expectReadable(tasks, positions);
    }
  });

  it('lays out a 1,000-task synthetic plan', { timeout: 120_000 }, async () => {
    const tasks = syntheticPlan(1_000, 1);
    const { positions, ms } = await layout(tasks);
    expectReadable(tasks, positions);
    const edges = tasks.reduce((sum, t) => sum + t.dependencies.length, 0);
    console.info(`[elk-graph] synthetic: ${tasks.length} tasks, ${edges} edges laid out in ${ms} ms`);
  });

  it('lays out a 200-task synthetic plan with the detailed option set', { timeout: 60_000 }, async () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS, 6);
    const { positions, ms } = await layout(tasks);
    expectReadable(tasks, positions);
    console.info(`[elk-graph] synthetic: ${tasks.length} tasks laid out in ${ms} ms (detailed options)`);
  });

  it.skipIf(!existsSync(MONTAGE))('lays out the WfCommons montage trace (2,122 tasks)', { timeout: 120_000 }, async () => {
    const { tasks } = parseWfFormat(readFileSync(MONTAGE, 'utf8'));
    expect(tasks).toHaveLength(2122);
    const { positions, ms } = await layout(tasks);
    expectReadable(tasks, positions);
    const edges = tasks.reduce((sum, t) => sum + t.dependencies.length, 0);
    console.info(`[elk-graph] montage: ${tasks.length} tasks, ${edges} edges laid out in ${ms} ms`);
  });
});
