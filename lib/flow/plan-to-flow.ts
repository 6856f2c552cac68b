import type { Edge, Node } from '@xyflow/react';
import type { PlannerTask, SubGraph, TaskMark } from '@/lib/plan';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { tasksById } from '@/lib/plan/task-index';
import { fallbackPosition } from './fallback-position';
import { markText, type RemovedTaskNode } from './review-marks';
import { groupNodeId, subgraphBoxes } from './subgraph-boxes';
import { labelsOfPlan } from './task-label';

// Plan → React Flow nodes and edges. Objects are cached by their inputs so that, on a
// 2,000-task plan, an edit re-creates only the nodes it touched and React Flow
// re-renders only those.

export type TaskNodeData = {
  task: PlannerTask;
  label: string;
  issueCount: number;
  hasError: boolean;
  highlighted: boolean;
  readOnly: boolean;
  /** Names the label for the browser's Element Timing (the first picture of a link to this task). */
  elementTiming?: string;
};
export type TaskNode = Node<TaskNodeData, 'task'>;
export type SubgraphNodeData = { subgraphId: string; taskCount: number; collapsed: boolean; highlighted: boolean };
export type SubgraphNode = Node<SubgraphNodeData, 'subgraph'>;
export type CanvasNode = TaskNode | SubgraphNode | RemovedTaskNode;
export type DependencyEdge = Edge<{ highlighted: boolean }>;

export interface FlowInputs {
  tasks: readonly PlannerTask[];
  positions: Readonly<Record<string, { x: number; y: number }>>;
  selectedTaskIds: ReadonlySet<string>;
  selectedEdgeId: string | null;
  issuesByTask: ReadonlyMap<string, { count: number; hasError: boolean }>;
  highlighted: ReadonlySet<string>;
  readOnly: boolean;
  subgraphs: readonly SubGraph[];
  /** Subgraphs drawn as one node: their tasks and inner edges are not drawn. */
  collapsed: ReadonlySet<string>;
  /** On the review canvas: how each task differs from the revision reviewed against, said in its accessible name. */
  reviewMarks?: ReadonlyMap<string, TaskMark>;
}

/** What the edges are drawn from: they do not depend on positions, the task selection or issues. */
export type EdgeInputs = Pick<FlowInputs, 'tasks' | 'selectedEdgeId' | 'highlighted' | 'readOnly' | 'subgraphs' | 'collapsed'>;

/** Task id → the canvas node that stands for it when its subgraph is collapsed. */
function collapsedOwners(input: Pick<FlowInputs, 'subgraphs' | 'collapsed'>): Map<string, string> {
  const owner = new Map<string, string>();
  if (input.collapsed.size === 0) return owner;
  for (const sg of input.subgraphs) {
    if (!input.collapsed.has(sg.subgraph_id)) continue;
    const node = groupNodeId(sg.subgraph_id);
    for (const id of sg.task_ids) owner.set(id, node);
  }
  return owner;
}

// JSON, not "from->to": task ids are free text and may contain any separator.
export const edgeId = (from: string, to: string) => JSON.stringify([from, to]);

export function parseEdgeId(id: string): { from: string; to: string } | null {
  try {
    const value: unknown = JSON.parse(id);
    return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string') ? { from: value[0], to: value[1] } : null;
  } catch {
    return null;
  }
}

const NODE_MEASURED = Object.freeze({ width: NODE_SIZE.width, height: NODE_SIZE.height });

type NodeCacheEntry = { task: PlannerTask; x: number; y: number; selected: boolean; issues: string; highlighted: boolean; mark: TaskMark | undefined; node: TaskNode };

export function createFlowMapper() {
  let nodeCache = new Map<string, NodeCacheEntry>();
  let edgeCache = new Map<string, DependencyEdge>();
  let groupCache = new Map<string, { key: string; node: SubgraphNode }>();

  /** Subgraph nodes come first so that they are drawn beneath the tasks. */
  function groupNodes(input: FlowInputs): SubgraphNode[] {
    if (input.subgraphs.length === 0) {
      groupCache = new Map();
      return [];
    }
    const order = new Map(input.tasks.map((t, i) => [t.task_id, i]));
    const boxes = subgraphBoxes(input.subgraphs, (id) => {
      const i = order.get(id);
      return i === undefined ? undefined : (input.positions[id] ?? fallbackPosition(i));
    });
    const members = new Map(input.subgraphs.map((sg) => [sg.subgraph_id, sg.task_ids]));
    const next = new Map<string, { key: string; node: SubgraphNode }>();
    const out = boxes.map((box) => {
      const collapsed = input.collapsed.has(box.subgraphId);
      const highlighted = (members.get(box.subgraphId) ?? []).some((id) => input.highlighted.has(id));
      // Unchanged groups keep their node object, so React Flow does not re-render them.
      const key = `${box.x},${box.y},${box.width},${box.height},${box.taskCount},${collapsed},${highlighted}`;
      const cached = groupCache.get(box.subgraphId);
      if (cached?.key === key) {
        next.set(box.subgraphId, cached);
        return cached.node;
      }
      const node: SubgraphNode = {
        id: groupNodeId(box.subgraphId),
        type: 'subgraph',
        position: { x: box.x, y: box.y },
        width: collapsed ? NODE_SIZE.width : box.width,
        height: collapsed ? NODE_SIZE.height : box.height,
        // As for task nodes: a collapsed group's edges stay mounted when it is redrawn.
        measured: collapsed ? NODE_MEASURED : { width: box.width, height: box.height },
        draggable: false,
        selectable: false,
        deletable: false,
        connectable: false,
        // An expanded box lets pointer events through to the pane and tasks beneath it (its
        // header takes them back); a collapsed one is a node in its own right, above the tasks.
        style: { pointerEvents: collapsed ? 'all' : 'none' },
        zIndex: collapsed ? 1 : 0,
        ariaLabel: `Subgraph ${box.subgraphId}, ${box.taskCount} task${box.taskCount === 1 ? '' : 's'}${collapsed ? ', collapsed' : ''}`,
        data: { subgraphId: box.subgraphId, taskCount: box.taskCount, collapsed, highlighted },
      };
      next.set(box.subgraphId, { key, node });
      return node;
    });
    groupCache = next;
    return out;
  }

  function nodes(input: FlowInputs): CanvasNode[] {
    const next = new Map<string, NodeCacheEntry>();
    const out: CanvasNode[] = groupNodes(input);
    const hidden = collapsedOwners(input);
    const labels = labelsOfPlan(input.tasks);
    input.tasks.forEach((task, i) => {
      if (next.has(task.task_id)) return; // duplicate ids are reported by validation; draw the first
      if (hidden.has(task.task_id)) return;
      const position = input.positions[task.task_id] ?? fallbackPosition(i);
      const selected = input.selectedTaskIds.has(task.task_id);
      const issueInfo = input.issuesByTask.get(task.task_id);
      const issues = issueInfo ? `${issueInfo.count}:${issueInfo.hasError}` : '';
      const highlighted = input.highlighted.has(task.task_id);
      const mark = input.reviewMarks?.get(task.task_id);
      // Another task's edit can change this one's label (two labels that now collide).
      const label = labels.get(task.task_id) ?? task.task_id;
      const cached = nodeCache.get(task.task_id);
      if (
        cached &&
        cached.task === task &&
        cached.x === position.x &&
        cached.y === position.y &&
        cached.selected === selected &&
        cached.issues === issues &&
        cached.highlighted === highlighted &&
        cached.mark === mark &&
        cached.node.data.label === label &&
        cached.node.data.readOnly === input.readOnly
      ) {
        next.set(task.task_id, cached);
        out.push(cached.node);
        return;
      }
      const node: TaskNode = {
        id: task.task_id,
        type: 'task',
        position,
        selected,
        width: NODE_SIZE.width,
        height: NODE_SIZE.height,
        // Its size, known: React Flow keeps the measured handles of a node that says it was
        // measured. A node object without it (every selection change makes a new one) loses
        // them, and its edges are unmounted until measured again, taking the keyboard focus
        // of a focused edge with them.
        measured: NODE_MEASURED,
        ariaLabel: mark ? `Task ${label}, ${markText(mark)}` : `Task ${label}`,
        data: {
          task,
          label,
          issueCount: issueInfo?.count ?? 0,
          hasError: issueInfo?.hasError ?? false,
          highlighted,
          readOnly: input.readOnly,
        },
      };
      next.set(task.task_id, { task, x: position.x, y: position.y, selected, issues, highlighted, mark, node });
      out.push(node);
    });
    nodeCache = next;
    return out;
  }

  /**
   * The dependency edges; with `within`, only those between nodes it names (the nodes a big
   * plan's canvas is given): building all 20,000 edges of a 10,000-task plan, each with its
   * accessible name, took 60 ms of the editor's first frame for the few hundred drawn.
   */
  function edges(input: EdgeInputs, within?: ReadonlySet<string>): DependencyEdge[] {
    // Built once per task list: a big plan's edges are built again each time its window moves.
    const known = tasksById(input.tasks);
    const next = new Map<string, DependencyEdge>();
    const hidden = collapsedOwners(input);
    const labels = labelsOfPlan(input.tasks);
    for (const task of input.tasks) {
      for (const dep of task.dependencies) {
        if (!known.has(dep) || dep === task.task_id) continue;
        const source = hidden.get(dep);
        const target = hidden.get(task.task_id);
        if (source !== undefined || target !== undefined) {
          // A subgraph-level edge: drawn between the nodes that stand for the tasks, once.
          const s = source ?? dep;
          const t = target ?? task.task_id;
          if (within && !(within.has(s) && within.has(t))) continue;
          const id = edgeId(s, t);
          if (s === t || next.has(id)) continue;
          next.set(id, edgeCache.get(id) ?? { id, source: s, target: t, selectable: false, deletable: false, reconnectable: false, focusable: false, className: 'plangate-edge-subgraph' });
          continue;
        }
        if (within && !(within.has(dep) && within.has(task.task_id))) continue;
        const id = edgeId(dep, task.task_id);
        if (next.has(id)) continue;
        const selected = input.selectedEdgeId === id;
        const highlighted = input.highlighted.has(dep) && input.highlighted.has(task.task_id);
        const ariaLabel = `Dependency ${labels.get(dep)} → ${labels.get(task.task_id)}`;
        const cached = edgeCache.get(id);
        if (cached && cached.selected === selected && cached.data?.highlighted === highlighted && cached.ariaLabel === ariaLabel) {
          next.set(id, cached);
          continue;
        }
        next.set(id, {
          id,
          source: dep,
          target: task.task_id,
          selected,
          reconnectable: !input.readOnly,
          ariaLabel,
          data: { highlighted },
          className: highlighted ? 'plangate-edge-highlighted' : undefined,
        });
      }
    }
    edgeCache = next;
    return [...next.values()];
  }

  return { nodes, edges };
}
