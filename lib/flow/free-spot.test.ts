import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { FREE_GAP, freeSpot } from './free-spot';
import type { Rect } from './view-window';

const task = (x: number, y: number): Rect => ({ x, y, ...NODE_SIZE });
const touches = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('freeSpot', () => {
  it('puts a new task right of the rightmost task in view, not on the last one added', () => {
    const nodes = [task(0, 0), task(300, 0), task(300, 200), task(5000, 0)];
    const view = { x: -100, y: -100, width: 1000, height: 600 };
    expect(freeSpot(nodes, view)).toEqual({ x: 300 + NODE_SIZE.width + FREE_GAP, y: 0 });
  });

  it('goes below the rightmost task when the place right of it is outside the view', () => {
    const nodes = [task(0, 0), task(600, 0)];
    const view = { x: 0, y: 0, width: 900, height: 600 };
    expect(freeSpot(nodes, view)).toEqual({ x: 600, y: NODE_SIZE.height + FREE_GAP });
  });

  it('steps down past tasks in the way', () => {
    const nodes = [task(0, 0), task(NODE_SIZE.width + FREE_GAP, 0)];
    const spot = freeSpot([nodes[0]!, ...nodes], { x: -50, y: -50, width: 300, height: 2000 });
    expect(nodes.some((n) => touches(n, { ...spot, ...NODE_SIZE }))).toBe(false);
  });

  it('uses the middle of an empty view, and the origin of an empty plan', () => {
    expect(freeSpot([task(5000, 5000)], { x: 0, y: 0, width: 1000, height: 600 })).toEqual({ x: 500 - NODE_SIZE.width / 2, y: 300 - NODE_SIZE.height / 2 });
    expect(freeSpot([], null)).toEqual({ x: 0, y: 0 });
  });

  it('never places a task on top of another, whatever the plan and the view', () => {
    const coord = fc.integer({ min: -2000, max: 2000 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: coord, y: coord }), { maxLength: 60 }),
        fc.option(fc.record({ x: coord, y: coord, width: fc.integer({ min: 200, max: 3000 }), height: fc.integer({ min: 200, max: 3000 }) }), { nil: null }),
        (points, view) => {
          const nodes = points.map((p) => task(p.x, p.y));
          const spot = { ...freeSpot(nodes, view), ...NODE_SIZE };
          expect(nodes.filter((n) => touches(n, spot))).toEqual([]);
        },
      ),
    );
  });
});
