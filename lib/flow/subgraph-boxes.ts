import type { SubGraph } from '@/lib/plan';
import { NODE_SIZE } from '@/lib/layout/elk-graph';

// Where each subgraph is drawn: a box around its tasks when expanded, one task-sized
// node at the box's corner when collapsed. Computed from task positions in one pass,
// so a 2,000-task plan's boxes cost a few hundred microseconds per edit.

export const GROUP_PADDING = { x: 16, top: 36, bottom: 16 } as const;

export interface SubgraphBox {
  subgraphId: string;
  x: number;
  y: number;
  width: number;
  height: number;
  taskCount: number;
}

/** The prefix of a subgraph's node id on the canvas; task ids never start with a control character. */
export const GROUP_NODE_PREFIX = '\u0001subgraph:';
export const groupNodeId = (subgraphId: string) => `${GROUP_NODE_PREFIX}${subgraphId}`;
export const subgraphIdOfNode = (nodeId: string): string | null => (nodeId.startsWith(GROUP_NODE_PREFIX) ? nodeId.slice(GROUP_NODE_PREFIX.length) : null);

export function subgraphBoxes(
  subgraphs: readonly SubGraph[],
  positionOf: (taskId: string) => { x: number; y: number } | undefined,
): SubgraphBox[] {
  const boxes: SubgraphBox[] = [];
  for (const sg of subgraphs) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    let count = 0;
    for (const id of sg.task_ids) {
      const p = positionOf(id);
      if (!p) continue;
      count++;
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x + NODE_SIZE.width);
      maxY = Math.max(maxY, p.y + NODE_SIZE.height);
    }
    if (count === 0) continue;
    boxes.push({
      subgraphId: sg.subgraph_id,
      x: minX - GROUP_PADDING.x,
      y: minY - GROUP_PADDING.top,
      width: maxX - minX + 2 * GROUP_PADDING.x,
      height: maxY - minY + GROUP_PADDING.top + GROUP_PADDING.bottom,
      taskCount: count,
    });
  }
  return boxes;
}

/**
 * The subgraph a task dropped with its centre at `point` joins: the smallest other box
 * holding the point, unless the task's own box holds it too (then it stays).
 */
export function dropTarget(boxes: readonly SubgraphBox[], point: { x: number; y: number }, ownSubgraphId: string | undefined): string | null {
  let best: SubgraphBox | null = null;
  for (const box of boxes) {
    if (point.x < box.x || point.x > box.x + box.width || point.y < box.y || point.y > box.y + box.height) continue;
    if (box.subgraphId === ownSubgraphId) return null;
    if (!best || box.width * box.height < best.width * best.height) best = box;
  }
  return best?.subgraphId ?? null;
}
