/**
 * The overview of a plan: its tasks aggregated by what they run (or their type, level or
 * subgraph) and by level, with the dependencies between aggregates counted.
 *
 * Why it exists: a 2,122-task workflow drawn task by task does not fit a screen at any
 * readable zoom, and drawing 20,000 nodes is what makes big plans slow to open. A few
 * dozen aggregates ("mDiffFit × 1,890") read at any size and draw at once; opening one
 * shows its tasks. Pure and O(n + e), so it runs on every plan change.
 */

import { buildGraphIndex, waveLevels } from '@/lib/graph';
// The modules themselves, not the '@/lib/plan' barrel: the overview is drawn before the
// editor's code (and zod, which the barrel's schemas need) has loaded.
import { executionKind, taskTarget } from '@/lib/plan/execution-kind';
import { executionTypeDescriptor } from '@/lib/plan/execution-types';
import type { PlannerTask } from '@/lib/plan';
import type { XYPosition } from '@/lib/layout/elk-graph';

export const GROUP_BY = ['target', 'type', 'level', 'subgraph'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const GROUP_BY_LABEL: Record<GroupBy, string> = { target: 'What it runs', type: 'Execution type', level: 'Level', subgraph: 'Subgraph' };

export interface Aggregate {
  id: string;
  /** What its tasks share: a target id, a type label, "Level 3", a subgraph id. */
  name: string;
  /** Its tasks in plan order. */
  taskIds: string[];
  /** First and last level its tasks sit at (0-based), or null in a plan with a cycle. */
  levels: [number, number] | null;
  /** Whether it merges the smallest groups of its column ("3 other targets"). */
  merged: boolean;
}

export interface AggregateLink {
  id: string;
  source: string;
  target: string;
  /** How many task dependencies it stands for. */
  count: number;
}

export interface Overview {
  aggregates: Aggregate[];
  links: AggregateLink[];
  /** Top-left corner of each aggregate's box. */
  positions: Record<string, XYPosition>;
  /** The aggregate each task is in. */
  aggregateOf: Map<string, string>;
}

/** An aggregate's box, in px: big type, so labels stay readable when the whole overview fits the screen. */
// Tall enough for a name on two lines (names are rarely spaced: "sG1IterDecon"), its count and a status line.
export const AGGREGATE_SIZE = Object.freeze({ width: 260, height: 170 });
const GAP_X = 60;
const GAP_Y = 40;
/** At most this many columns (level bands) and this many aggregates in a column. */
export const OVERVIEW_COLUMNS = 8;
export const OVERVIEW_ROWS = 6;

interface OverviewOptions {
  groupBy: GroupBy;
  subgraphs?: ReadonlyArray<{ subgraph_id: string; task_ids: readonly string[] }>;
  columns?: number;
  rows?: number;
}

export type OverviewTask = Pick<PlannerTask, 'task_id' | 'execution_type' | 'agent_id' | 'tool_id' | 'function_id' | 'parameters'> & { dependencies: readonly string[] };

function keyOf(task: OverviewTask, groupBy: GroupBy, subgraphOf: Map<string, string>): string {
  switch (groupBy) {
    case 'target': {
      const target = taskTarget(task);
      if (target) return target.id;
      const kind = executionKind(task);
      return `${executionTypeDescriptor(kind)?.label ?? (kind || 'Untyped')} without a target`;
    }
    case 'type': {
      const kind = executionKind(task);
      return executionTypeDescriptor(kind)?.label ?? (kind || 'Untyped');
    }
    case 'subgraph':
      return subgraphOf.get(task.task_id) ?? 'Not in a subgraph';
    case 'level':
      return '';
  }
}

const levelText = (from: number, to: number) => (from === to ? `Level ${from + 1}` : `Levels ${from + 1}–${to + 1}`);

export function buildOverview(tasks: readonly OverviewTask[], options: OverviewOptions): Overview {
  const { groupBy } = options;
  const maxColumns = options.columns ?? OVERVIEW_COLUMNS;
  const maxRows = options.rows ?? OVERVIEW_ROWS;
  const subgraphOf = new Map<string, string>();
  for (const sg of options.subgraphs ?? []) for (const id of sg.task_ids) if (!subgraphOf.has(id)) subgraphOf.set(id, sg.subgraph_id);

  const index = buildGraphIndex(tasks);
  const levels = waveLevels(index);
  let levelCount = 1;
  if (levels) for (const level of levels) levelCount = Math.max(levelCount, level + 1);
  const bands = Math.min(maxColumns, levelCount);
  // Long plans put several consecutive levels in one column.
  const bandOf = (i: number) => (levels ? Math.floor((levels[i]! * bands) / levelCount) : 0);

  // Column → key → task indexes; the index's ids are the plan's unique task ids in order.
  const columns: Map<string, number[]>[] = Array.from({ length: bands }, () => new Map());
  const byId = new Map<string, OverviewTask>();
  for (const task of tasks) if (!byId.has(task.task_id)) byId.set(task.task_id, task);
  for (let i = 0; i < index.n; i++) {
    const task = byId.get(index.ids[i]!)!;
    const key = keyOf(task, groupBy, subgraphOf);
    const column = columns[bandOf(i)]!;
    const members = column.get(key);
    if (members) members.push(i);
    else column.set(key, [i]);
  }

  const aggregates: Aggregate[] = [];
  const positions: Record<string, XYPosition> = Object.create(null);
  const aggregateOfIndex = new Int32Array(index.n);
  const placed: { column: number; count: number }[] = [];
  columns.forEach((column, c) => {
    // Biggest first; past the row cap the smallest groups share one aggregate.
    const groups = [...column.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
    const kept = groups.length > maxRows ? groups.slice(0, maxRows - 1) : groups;
    const rest = groups.length > maxRows ? groups.slice(maxRows - 1) : [];
    const rows: { name: string; members: number[]; merged: boolean }[] = kept.map(([name, members]) => ({ name, members, merged: false }));
    if (rest.length) {
      const noun = groupBy === 'subgraph' ? 'subgraphs' : groupBy === 'type' ? 'types' : 'targets';
      rows.push({ name: `${rest.length} other ${noun}`, members: rest.flatMap(([, members]) => members).sort((a, b) => a - b), merged: true });
    }
    rows.forEach((row, r) => {
      const id = `agg-${c}-${r}`;
      let from = Infinity;
      let to = -Infinity;
      for (const i of row.members) {
        aggregateOfIndex[i] = aggregates.length;
        if (levels) {
          from = Math.min(from, levels[i]!);
          to = Math.max(to, levels[i]!);
        }
      }
      const span: [number, number] | null = levels ? [from, to] : null;
      const name = groupBy === 'level' ? (span ? levelText(span[0], span[1]) : 'All tasks') : row.name;
      aggregates.push({ id, name, taskIds: row.members.map((i) => index.ids[i]!), levels: span, merged: row.merged });
      placed.push({ column: c, count: rows.length });
      positions[id] = { x: 0, y: 0 };
    });
  });

  // Columns side by side, each centred on the tallest.
  const tallest = Math.max(1, ...placed.map((p) => p.count));
  const rowInColumn = new Map<number, number>();
  aggregates.forEach((aggregate, a) => {
    const { column, count } = placed[a]!;
    const row = rowInColumn.get(column) ?? 0;
    rowInColumn.set(column, row + 1);
    positions[aggregate.id] = {
      x: column * (AGGREGATE_SIZE.width + GAP_X),
      y: Math.round(((tallest - count) * (AGGREGATE_SIZE.height + GAP_Y)) / 2 + row * (AGGREGATE_SIZE.height + GAP_Y)),
    };
  });

  const counts = new Map<string, number>();
  const { succOffsets, succ } = index;
  for (let v = 0; v < index.n; v++) {
    for (let k = succOffsets[v]!; k < succOffsets[v + 1]!; k++) {
      const from = aggregateOfIndex[v]!;
      const to = aggregateOfIndex[succ[k]!]!;
      if (from === to) continue;
      const key = `${from}>${to}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const links: AggregateLink[] = [...counts.entries()].map(([key, count]) => {
    const [from, to] = key.split('>').map(Number);
    const source = aggregates[from!]!.id;
    const target = aggregates[to!]!.id;
    return { id: `${source}>${target}`, source, target, count };
  });

  const aggregateOf = new Map<string, string>();
  for (let i = 0; i < index.n; i++) aggregateOf.set(index.ids[i]!, aggregates[aggregateOfIndex[i]!]!.id);
  return { aggregates, links, positions, aggregateOf };
}

/** "Level 2" or "Levels 3–5", for an aggregate's description. */
export function aggregateLevels(aggregate: Aggregate): string {
  return aggregate.levels ? levelText(aggregate.levels[0], aggregate.levels[1]) : 'In a cycle';
}

/** Plans with more tasks than this open in the overview, and switch to it when zoomed out past OVERVIEW_ZOOM. */
export const OVERVIEW_TASKS = 500;
export const OVERVIEW_ZOOM = 0.3;

export function isGroupBy(value: unknown): value is GroupBy {
  return (GROUP_BY as readonly unknown[]).includes(value);
}

/** "mDiffFit × 1,890": what an aggregate is called on the canvas and to assistive technology. */
export function aggregateTitle(aggregate: Aggregate): string {
  return `${aggregate.name} × ${aggregate.taskIds.length.toLocaleString('en-US')}`;
}
