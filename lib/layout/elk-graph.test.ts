/**
 * Checks the ELK translation by running real ELK layouts in Node and asserting what
 * a user sees: every task placed, prerequisites left of dependents, no overlapping
 * boxes, and malformed dependency lists tolerated. How long the layouts take is
 * measured by `npm run bench` (scripts/bench.ts, its layout section), not here.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { syntheticPlan } from '@/scripts/synthetic-plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { parseWfFormat } from '../formats/wfformat';
import {
  fromElkResult,
  LARGE_GRAPH_TASKS,
  NODE_SIZE,
  toElkGraph,
  type LayoutTask,
  type NodeSize,
  type XYPosition,
} from './elk-graph';
import { layOutGraph } from './lay-out-graph';
import { overlaps } from './overlap-test-support';

const MONTAGE = path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage);

const elk = new ELK();

async function layout(tasks: ReadonlyArray<LayoutTask>, nodeSize: NodeSize = NODE_SIZE) {
  return { positions: fromElkResult(await layOutGraph(elk, toElkGraph(tasks, { nodeSize }))) };
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


function expectReadable(tasks: ReadonlyArray<LayoutTask>, positions: Record<string, XYPosition>, size = NODE_SIZE) {
  expectEveryTaskPlaced(tasks, positions);
  expect(backwardEdges(tasks, positions)).toEqual([]);
  expect(overlaps(positions, size)).toEqual([]);
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

  it('lets ELK lay out plans of up to LARGE_GRAPH_TASKS tasks on its own', () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS, 1);
    const graph = toElkGraph(tasks);
    expect(graph.layoutOptions).toMatchObject({
      'elk.layered.layering.strategy': 'NETWORK_SIMPLEX',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    });
    expect(graph.children?.every((c) => c.x === undefined)).toBe(true);
    expect(graph.edges).toHaveLength(tasks.reduce((sum, t) => sum + t.dependencies.length, 0));
  });

  it('pre-layers larger plans: every dependency left to right, only short edges kept', () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS + 1, 1);
    const graph = toElkGraph(tasks);
    expect(graph.layoutOptions).toMatchObject({
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.layering.strategy': 'INTERACTIVE',
      'elk.layered.nodePlacement.strategy': 'SIMPLE',
    });
    const step = NODE_SIZE.width + 1;
    const layer = new Map(graph.children?.map((c) => [c.id, (c.x ?? NaN) / step]));
    for (const l of layer.values()) expect(Number.isInteger(l) && l >= 0).toBe(true);
    const kept = new Set(graph.edges?.map((e) => `${e.sources[0]}->${e.targets[0]}`));
    for (const task of tasks) {
      for (const dep of task.dependencies) {
        const span = layer.get(task.task_id)! - layer.get(dep)!;
        expect(span).toBeGreaterThan(0);
        expect(kept.has(`${dep}->${task.task_id}`)).toBe(span <= 2);
      }
    }
    // Each task sits right before its earliest dependent; tasks nothing waits for stay early.
    const dependents = new Map<string, string[]>();
    for (const t of tasks) for (const d of t.dependencies) dependents.set(d, [...(dependents.get(d) ?? []), t.task_id]);
    for (const [id, next] of dependents) {
      expect(layer.get(id)).toBe(Math.min(...next.map((n) => layer.get(n)!)) - 1);
    }
  });

  it('falls back to ELK layering, with every edge, for a cyclic large plan', () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS + 1, 1);
    tasks[0] = { ...tasks[0]!, dependencies: [tasks[tasks.length - 1]!.task_id] };
    const graph = toElkGraph(tasks);
    expect(graph.layoutOptions?.['elk.layered.layering.strategy']).toBe('NETWORK_SIMPLEX');
    expect(graph.children?.every((c) => c.x === undefined)).toBe(true);
    expect(graph.edges).toHaveLength(tasks.reduce((sum, t) => sum + t.dependencies.length, 0));
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
    const { positions } = await layout(tasks);
    expectReadable(tasks, positions);
  });

  it('lays out the largest plan that gets the detailed options', { timeout: 60_000 }, async () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS, 6);
    const { positions } = await layout(tasks);
    expectReadable(tasks, positions);
  });

  it('lays out a cyclic large plan without failing', { timeout: 60_000 }, async () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS + 1, 1);
    tasks[0] = { ...tasks[0]!, dependencies: [tasks[tasks.length - 1]!.task_id] };
    const { positions } = await layout(tasks);
    expectEveryTaskPlaced(tasks, positions);
    expect(overlaps(positions, NODE_SIZE)).toEqual([]);
  });

  it("lays out a 10,000-task chain (ELK's own layering overflows the stack on it)", { timeout: 120_000 }, async () => {
    const tasks = Array.from({ length: 10_000 }, (_, i) => ({ task_id: `c${i}`, dependencies: i ? [`c${i - 1}`] : [] }));
    const { positions } = await layout(tasks);
    expectReadable(tasks, positions);
  });

  it('lays out the WfCommons montage trace (2,122 tasks)', { timeout: 120_000 }, async () => {
    const { tasks } = parseWfFormat(readFileSync(MONTAGE, 'utf8'));
    expect(tasks).toHaveLength(2122);
    const { positions } = await layout(tasks);
    expectReadable(tasks, positions);
  });
});
