/**
 * The part of a big plan's canvas React Flow is given: the nodes in and around the view.
 *
 * Why it exists: React Flow draws every node it is given once, whatever
 * `onlyRenderVisibleElements` says, so that it can measure it (a node without measured
 * handles is always "visible"). Handed 10,000 tasks, it built and styled 10,000 DOM nodes
 * and removed them again, which cost more than a second when opening a plan at a task. The
 * canvas gives it the nodes within a window, the view widened by half its size on every
 * side, and moves the window when the view leaves it. Fits are computed from positions,
 * since React Flow cannot fit nodes it was not given.
 */

import { NODE_SIZE, type XYPosition } from '@/lib/layout/elk-graph';

/** A rectangle in flow coordinates. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Placed {
  id: string;
  position: XYPosition;
  width?: number;
  height?: number;
}

/** What the screen shows of the flow: React Flow's transform [x, y, zoom] over a pane of width × height. */
export function visibleRect([x, y, zoom]: readonly [number, number, number], width: number, height: number): Rect {
  return { x: -x / zoom, y: -y / zoom, width: width / zoom, height: height / zoom };
}

/** The view widened by half its size on every side: room to pan before the window moves. */
export function windowAround(view: Rect): Rect {
  return { x: view.x - view.width / 2, y: view.y - view.height / 2, width: view.width * 2, height: view.height * 2 };
}

export function containsRect(outer: Rect, inner: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

/** Ids of the nodes that overlap the rectangle (a node without a size counts as a task's). */
export function idsWithin(nodes: readonly Placed[], rect: Rect): Set<string> {
  const right = rect.x + rect.width;
  const bottom = rect.y + rect.height;
  const ids = new Set<string>();
  for (const node of nodes) {
    const { x, y } = node.position;
    if (x + (node.width ?? NODE_SIZE.width) >= rect.x && x <= right && y + (node.height ?? NODE_SIZE.height) >= rect.y && y <= bottom) ids.add(node.id);
  }
  return ids;
}

/** The box around the tasks' saved positions, each a task node's size; null when none is placed. */
export function boundsOfTasks(taskIds: readonly string[], positions: Readonly<Record<string, XYPosition>>): Rect | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const id of taskIds) {
    const at = Object.hasOwn(positions, id) ? positions[id] : undefined;
    if (!at) continue;
    left = Math.min(left, at.x);
    top = Math.min(top, at.y);
    right = Math.max(right, at.x + NODE_SIZE.width);
    bottom = Math.max(bottom, at.y + NODE_SIZE.height);
  }
  return left === Infinity ? null : { x: left, y: top, width: right - left, height: bottom - top };
}
