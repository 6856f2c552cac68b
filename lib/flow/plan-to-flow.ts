import type { Edge, Node } from '@xyflow/react';
import type { PlannerTask } from '@/lib/plan';
import { NODE_SIZE } from './elk-graph';
import { taskLabel } from './task-label';

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
};
export type TaskNode = Node<TaskNodeData, 'task'>;
export type DependencyEdge = Edge<{ highlighted: boolean }>;

export interface FlowInputs {
  tasks: readonly PlannerTask[];
  positions: Readonly<Record<string, { x: number; y: number }>>;
  selectedTaskIds: ReadonlySet<string>;
  selectedEdgeId: string | null;
  issuesByTask: ReadonlyMap<string, { count: number; hasError: boolean }>;
  highlighted: ReadonlySet<string>;
  readOnly: boolean;
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

type NodeCacheEntry = { task: PlannerTask; x: number; y: number; selected: boolean; issues: string; highlighted: boolean; node: TaskNode };

export function createFlowMapper() {
  let nodeCache = new Map<string, NodeCacheEntry>();
  let edgeCache = new Map<string, DependencyEdge>();

  function nodes(input: FlowInputs): TaskNode[] {
    const next = new Map<string, NodeCacheEntry>();
    const out: TaskNode[] = [];
    input.tasks.forEach((task, i) => {
      if (next.has(task.task_id)) return; // duplicate ids are reported by validation; draw the first
      const position = input.positions[task.task_id] ?? { x: (i % 20) * 280, y: Math.floor(i / 20) * 120 };
      const selected = input.selectedTaskIds.has(task.task_id);
      const issueInfo = input.issuesByTask.get(task.task_id);
      const issues = issueInfo ? `${issueInfo.count}:${issueInfo.hasError}` : '';
      const highlighted = input.highlighted.has(task.task_id);
      const cached = nodeCache.get(task.task_id);
      if (
        cached &&
        cached.task === task &&
        cached.x === position.x &&
        cached.y === position.y &&
        cached.selected === selected &&
        cached.issues === issues &&
        cached.highlighted === highlighted &&
        cached.node.data.readOnly === input.readOnly
      ) {
        next.set(task.task_id, cached);
        out.push(cached.node);
        return;
      }
      const label = taskLabel(task);
      const node: TaskNode = {
        id: task.task_id,
        type: 'task',
        position,
        selected,
        width: NODE_SIZE.width,
        height: NODE_SIZE.height,
        ariaLabel: `Task ${label}`,
        data: {
          task,
          label,
          issueCount: issueInfo?.count ?? 0,
          hasError: issueInfo?.hasError ?? false,
          highlighted,
          readOnly: input.readOnly,
        },
      };
      next.set(task.task_id, { task, x: position.x, y: position.y, selected, issues, highlighted, node });
      out.push(node);
    });
    nodeCache = next;
    return out;
  }

  function edges(input: FlowInputs): DependencyEdge[] {
    const known = new Map(input.tasks.map((t) => [t.task_id, t]));
    const next = new Map<string, DependencyEdge>();
    for (const task of input.tasks) {
      for (const dep of task.dependencies) {
        const from = known.get(dep);
        if (!from || dep === task.task_id) continue;
        const id = edgeId(dep, task.task_id);
        if (next.has(id)) continue;
        const selected = input.selectedEdgeId === id;
        const highlighted = input.highlighted.has(dep) && input.highlighted.has(task.task_id);
        const ariaLabel = `Dependency ${taskLabel(from)} → ${taskLabel(task)}`;
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
