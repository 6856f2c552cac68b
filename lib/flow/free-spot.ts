import { NODE_SIZE, type XYPosition } from '@/lib/layout/elk-graph';
import type { Rect } from './view-window';

/** Space kept between a new task and the tasks around it. */
export const FREE_GAP = 40;
/** Rows tried downwards from a candidate before the next candidate is tried. */
const MAX_STEPS = 10_000;

const intersects = (a: Rect, b: Rect, margin = 0) =>
  a.x < b.x + b.width + margin && b.x < a.x + a.width + margin && a.y < b.y + b.height + margin && b.y < a.y + a.height + margin;
const overlaps = (a: Rect, b: Rect) => intersects(a, b, FREE_GAP);
const inside = (outer: Rect, inner: Rect) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;

/** The first place from `start` downwards, a row at a time, where a task touches no node. */
function freeBelow(nodes: readonly Rect[], start: XYPosition): XYPosition {
  const at = { ...start, ...NODE_SIZE };
  for (let step = 0; step < MAX_STEPS; step++) {
    const hit = nodes.filter((node) => overlaps(at, node));
    if (hit.length === 0) return { x: at.x, y: at.y };
    // Past the lowest node in the way, not a fixed step: one hop clears a tall obstacle.
    at.y = Math.max(...hit.map((node) => node.y + node.height)) + FREE_GAP;
  }
  return { x: at.x, y: at.y };
}

/**
 * Where a new task goes: beside the rightmost task in view (right of it, else below it),
 * touching no node, preferring a place inside the view; with no task in view, the middle of
 * the view; without a view, right of the whole plan. Positions are whole numbers.
 */
export function freeSpot(nodes: readonly Rect[], view: Rect | null): XYPosition {
  const seen = view ? nodes.filter((node) => intersects(node, view)) : nodes;
  const rightmost = seen.reduce<Rect | null>((best, node) => (!best || node.x + node.width > best.x + best.width ? node : best), null);
  const candidates: XYPosition[] = rightmost
    ? [
        { x: rightmost.x + rightmost.width + FREE_GAP, y: rightmost.y },
        { x: rightmost.x, y: rightmost.y + rightmost.height + FREE_GAP },
      ]
    : [view ? { x: view.x + view.width / 2 - NODE_SIZE.width / 2, y: view.y + view.height / 2 - NODE_SIZE.height / 2 } : { x: 0, y: 0 }];
  const spots = candidates.map((start) => freeBelow(nodes, { x: Math.round(start.x), y: Math.round(start.y) }));
  return (view && spots.find((spot) => inside(view, { ...spot, ...NODE_SIZE }))) || spots[0]!;
}
