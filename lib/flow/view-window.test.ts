import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { boundsOfTasks, containsRect, idsWithin, visibleRect, windowAround } from './view-window';

// A big plan's canvas is given only the nodes in a window around the view: every node the
// screen shows must be in it, and the fit of a task must put that task on screen.

const grid = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `t${i}`, position: { x: (i % 100) * 320, y: Math.floor(i / 100) * 120 } }));

describe('the window of a big plan', () => {
  it('holds every node the view shows, and leaves out the ones far from it', () => {
    const nodes = grid(10_000);
    fc.assert(
      fc.property(fc.double({ min: -40_000, max: 0, noNaN: true }), fc.double({ min: -15_000, max: 0, noNaN: true }), fc.double({ min: 0.25, max: 2, noNaN: true }), (x, y, zoom) => {
        const view = visibleRect([x, y, zoom], 1440, 900);
        const window = windowAround(view);
        expect(containsRect(window, view)).toBe(true);
        const given = idsWithin(nodes, window);
        for (const id of idsWithin(nodes, view)) expect(given.has(id)).toBe(true);
        // Twice the view each way, plus a node's size at the edges: never the whole plan.
        const perView = (window.width / 320 + 2) * (window.height / 120 + 2);
        expect(given.size).toBeLessThanOrEqual(Math.ceil(perView));
      }),
    );
  });

  it('reads the view from the transform as React Flow applies it', () => {
    // A point at flow (a, b) is drawn at screen (a * zoom + x, b * zoom + y).
    expect(visibleRect([-640, -240, 2], 1440, 900)).toEqual({ x: 320, y: 120, width: 720, height: 450 });
  });

  it('fits tasks by their saved positions, a task node each; nothing for tasks not placed', () => {
    expect(boundsOfTasks(['a', 'b', 'missing'], { a: { x: 100, y: 50 }, b: { x: -20, y: 400 } })).toEqual({
      x: -20,
      y: 50,
      width: 120 + NODE_SIZE.width,
      height: 350 + NODE_SIZE.height,
    });
    expect(boundsOfTasks(['missing', 'toString'], { a: { x: 0, y: 0 } })).toBeNull();
  });
});
