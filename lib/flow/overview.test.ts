import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWfFormat } from '@/lib/formats/wfformat';
import { taskDataFromWorkflow } from '@/lib/formats/wfformat-plan';
import { anyGraphArb, dagArb } from '@/lib/graph/test-arbitraries';
import type { PlannerTask } from '@/lib/plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { AGGREGATE_SIZE, GROUP_BY, buildOverview } from './overview';

// The importer's output is what a plan is created from; every montage task has an id and dependencies.
const montage = () => taskDataFromWorkflow(parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'))).planned_tasks as PlannerTask[];

const task = (task_id: string, dependencies: readonly string[], routed: Partial<PlannerTask>) => ({
  task_id,
  dependencies,
  execution_type: null,
  agent_id: null,
  tool_id: null,
  function_id: null,
  parameters: {},
  ...routed,
});

describe('buildOverview', () => {
  it('reads the montage trace as one aggregate per tool and level, with the dependencies between them counted', () => {
    const overview = buildOverview(montage(), { groupBy: 'target' });
    const named = overview.aggregates.map((a) => `${a.name} × ${a.taskIds.length}`);
    expect(named).toEqual(['mProject × 108', 'mDiffFit × 1890', 'mConcatFit × 3', 'mBgModel × 3', 'mBackground × 108', 'mImgtbl × 3', 'mAdd × 3', 'mViewer × 4']);
    const link = overview.links.find((l) => l.source === overview.aggregates[0]!.id && l.target === overview.aggregates[1]!.id)!;
    // Every mDiffFit compares two reprojected tiles.
    expect(link.count).toBe(2 * 1890);
    // Eight columns in a row: the fit zoom on a laptop-sized canvas keeps 36 px labels readable.
    const xs = overview.aggregates.map((a) => overview.positions[a.id]!.x);
    expect(new Set(xs).size).toBe(8);
  });

  it('puts every task in exactly one aggregate, whatever the grouping, and never more columns or rows than allowed', () => {
    fc.assert(
      fc.property(anyGraphArb(40), fc.constantFrom(...GROUP_BY), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (graph, groupBy, columns, rows) => {
        const tasks = graph.tasks.map((t, i) => task(t.task_id, t.dependencies, { execution_type: 'tool', tool_id: `tool-${i % 5}` }));
        const overview = buildOverview(tasks, { groupBy, columns, rows, subgraphs: [{ subgraph_id: 'sg', task_ids: tasks.slice(0, 3).map((t) => t.task_id) }] });
        const members = overview.aggregates.flatMap((a) => a.taskIds);
        expect(members.sort()).toEqual(tasks.map((t) => t.task_id).sort());
        for (const a of overview.aggregates) for (const id of a.taskIds) expect(overview.aggregateOf.get(id)).toBe(a.id);
        const xs = new Set(overview.aggregates.map((a) => overview.positions[a.id]!.x));
        expect(xs.size).toBeLessThanOrEqual(columns);
        for (const x of xs) expect(overview.aggregates.filter((a) => overview.positions[a.id]!.x === x).length).toBeLessThanOrEqual(rows);
      }),
    );
  });

  it('counts each dependency between two aggregates once, and none inside one', () => {
    fc.assert(
      fc.property(dagArb(40), (graph) => {
        const tasks = graph.tasks.map((t, i) => task(t.task_id, t.dependencies, { execution_type: 'agent', agent_id: `agent-${i % 3}` }));
        const overview = buildOverview(tasks, { groupBy: 'target', columns: 3, rows: 2 });
        const crossing = graph.edges.filter(([a, b]) => overview.aggregateOf.get(`task-${a}`) !== overview.aggregateOf.get(`task-${b}`)).length;
        expect(overview.links.reduce((sum, l) => sum + l.count, 0)).toBe(crossing);
        for (const l of overview.links) expect(l.source).not.toBe(l.target);
      }),
    );
  });

  it('merges the smallest groups of a crowded column into one "other" aggregate', () => {
    const tasks = Array.from({ length: 10 }, (_, i) => task(`t${i}`, [], { execution_type: 'tool', tool_id: i < 4 ? 'big' : `small-${i}` }));
    const overview = buildOverview(tasks, { groupBy: 'target', rows: 3 });
    expect(overview.aggregates.map((a) => [a.name, a.taskIds.length, a.merged])).toEqual([
      ['big', 4, false],
      ['small-4', 1, false],
      ['5 other targets', 5, true],
    ]);
  });

  it('groups long plans into level bands, and by level alone when asked', () => {
    const chain = Array.from({ length: 30 }, (_, i) => task(`t${i}`, i ? [`t${i - 1}`] : [], { execution_type: 'llm' }));
    const overview = buildOverview(chain, { groupBy: 'level', columns: 8 });
    expect(overview.aggregates).toHaveLength(8);
    expect(overview.aggregates[0]!.name).toBe('Levels 1–4');
    expect(overview.aggregates.at(-1)!.name).toBe('Levels 28–30');
    const typed = buildOverview(chain, { groupBy: 'type', columns: 1 });
    expect(typed.aggregates.map((a) => `${a.name} × ${a.taskIds.length}`)).toEqual(['LLM × 30']);
    const untargeted = buildOverview(chain, { groupBy: 'target', columns: 1 });
    expect(untargeted.aggregates[0]!.name).toBe('LLM without a target');
  });

  it('keeps aggregates apart: no two boxes overlap', () => {
    const overview = buildOverview(montage(), { groupBy: 'type' });
    const boxes = overview.aggregates.map((a) => overview.positions[a.id]!);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const apart = Math.abs(boxes[i]!.x - boxes[j]!.x) >= AGGREGATE_SIZE.width || Math.abs(boxes[i]!.y - boxes[j]!.y) >= AGGREGATE_SIZE.height;
        expect(apart).toBe(true);
      }
    }
  });
});
