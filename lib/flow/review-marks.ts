import type { Node } from '@xyflow/react';
// Not the '@/lib/plan' barrel: the preview's task nodes come here, and the barrel loads zod.
import { taskMarks, type PlanDiff, type TaskMark } from '@/lib/plan/diff';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { fallbackPosition } from './fallback-position';
import { taskLabel } from './task-label';

// What the review canvas marks, relative to the revision the review diffs against: a mark
// per added, replacing or changed task, and the removed tasks drawn as "ghosts" where the
// base revision had them. Built once on the server (plain data, sent to the page), placed
// once on the client after the layout: O(tasks) each.

/** A task of the base revision that the reviewed revision no longer has. */
export interface RemovedTask {
  task_id: string;
  label: string;
  /** The new tasks that name it in main_task_id. */
  replacedBy: string[];
  /** Where the base revision drew it; null when it had no saved position. */
  position: { x: number; y: number } | null;
}

/** The review canvas's input, as plain data (a server component hands it to the editor). */
export interface ReviewMarksData {
  marks: Record<string, TaskMark>;
  removed: RemovedTask[];
}

export function reviewMarksData(diff: PlanDiff, basePositions: Readonly<Record<string, { x: number; y: number }>>): ReviewMarksData {
  const replacedBy = new Map(diff.replacements.map((r) => [r.replaces.task_id, r.tasks.map((t) => t.task.task_id)]));
  return {
    marks: Object.fromEntries(taskMarks(diff)),
    removed: diff.removed.map((task) => ({
      task_id: task.task_id,
      label: taskLabel(task),
      replacedBy: replacedBy.get(task.task_id) ?? [],
      position: basePositions[task.task_id] ?? null,
    })),
  };
}

/** What a mark says, in words: the legend's text and the end of a node's accessible name. */
export function markText(mark: TaskMark): string {
  if (mark.kind === 'added') return 'added';
  if (mark.kind === 'replaces') return `replaces ${mark.replaces}`;
  return `changed: ${mark.fields.join(', ')}`;
}

export function removedText(task: RemovedTask): string {
  return task.replacedBy.length ? `removed, replaced by ${task.replacedBy.join(', ')}` : 'removed';
}

export type RemovedTaskNode = Node<{ task: RemovedTask }, 'removed'>;

/** Ghost node ids start with a control character, which task ids never do. */
export const REMOVED_NODE_PREFIX = '\u0001removed:';

const GAP = 40;
const PER_ROW = 8;
type Box = { x: number; y: number };
const overlaps = (a: Box, b: Box) => Math.abs(a.x - b.x) < NODE_SIZE.width && Math.abs(a.y - b.y) < NODE_SIZE.height;

/**
 * Ghost nodes for removed tasks: each where the base revision drew it, unless that spot is
 * now taken by a task (or has no saved position); those go in rows beneath the plan.
 * Overlap is looked up in a grid of node-sized cells, so placement is O(tasks + removed).
 */
export function removedTaskNodes(
  removed: readonly RemovedTask[],
  tasks: ReadonlyArray<{ task_id: string }>,
  positions: Readonly<Record<string, Box>>,
): RemovedTaskNode[] {
  if (removed.length === 0) return [];
  const cells = new Map<string, Box[]>();
  const cellOf = (x: number, y: number) => `${Math.floor(x / NODE_SIZE.width)},${Math.floor(y / NODE_SIZE.height)}`;
  const occupy = (box: Box) => {
    const key = cellOf(box.x, box.y);
    const list = cells.get(key);
    if (list) list.push(box);
    else cells.set(key, [box]);
  };
  const taken = (box: Box) => {
    const cx = Math.floor(box.x / NODE_SIZE.width);
    const cy = Math.floor(box.y / NODE_SIZE.height);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if (cells.get(`${cx + dx},${cy + dy}`)?.some((other) => overlaps(box, other))) return true;
    return false;
  };
  let minX = Infinity;
  let maxY = -Infinity;
  // Where the tasks are drawn now (before the first layout lands, where the canvas puts them
  // meanwhile); not the view's other entries, which may hold the positions of dropped tasks.
  for (const [i, { task_id }] of tasks.entries()) {
    const box = positions[task_id] ?? fallbackPosition(i);
    occupy(box);
    minX = Math.min(minX, box.x);
    maxY = Math.max(maxY, box.y);
  }
  const placed: Array<{ task: RemovedTask; at: Box }> = [];
  const unplaced: RemovedTask[] = [];
  for (const task of removed) {
    if (task.position && !taken(task.position)) {
      occupy(task.position);
      placed.push({ task, at: task.position });
      maxY = Math.max(maxY, task.position.y);
    } else {
      unplaced.push(task);
    }
  }
  const left = Number.isFinite(minX) ? minX : 0;
  const top = Number.isFinite(maxY) ? maxY + NODE_SIZE.height + 2 * GAP : 0;
  unplaced.forEach((task, i) => {
    placed.push({ task, at: { x: left + (i % PER_ROW) * (NODE_SIZE.width + GAP), y: top + Math.floor(i / PER_ROW) * (NODE_SIZE.height + GAP) } });
  });
  return placed.map(({ task, at }) => ({
    id: `${REMOVED_NODE_PREFIX}${task.task_id}`,
    type: 'removed',
    position: at,
    width: NODE_SIZE.width,
    height: NODE_SIZE.height,
    // Drawn for reading only: the task is not in this revision, so nothing can be done to it.
    draggable: false,
    selectable: false,
    connectable: false,
    deletable: false,
    ariaLabel: `Removed task ${task.label}${task.label === task.task_id ? '' : ` (${task.task_id})`}${task.replacedBy.length ? `, replaced by ${task.replacedBy.join(', ')}` : ''}`,
    data: { task },
  }));
}
