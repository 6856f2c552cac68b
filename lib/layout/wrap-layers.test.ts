/**
 * Checks the refit of large layouts: on any layered picture (fast-check grids) no
 * boxes overlap, each layer keeps its order and only layers above one row cap are
 * split; on real ELK layouts of the montage trace and a 10,000-task plan the picture
 * ends up screen-shaped; plans the detailed layout handles are left alone.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import ELK from 'elkjs/lib/elk.bundled.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntheticPlan } from '@/scripts/synthetic-plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { parseWfFormat } from '../formats/wfformat';
import { fromElkResult, LARGE_GRAPH_TASKS, NODE_SIZE, toElkGraph, type LayoutTask, type NodeSize, type XYPosition } from './elk-graph';
import { layoutPositions, wrapLayers } from './wrap-layers';
import { layOutGraph } from './lay-out-graph';
import { overlaps } from './overlap-test-support';

const elk = new ELK();
type Positions = Record<string, XYPosition>;


function picture(positions: Positions, { width, height }: NodeSize = NODE_SIZE) {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y } of Object.values(positions)) {
    [left, top] = [Math.min(left, x), Math.min(top, y)];
    [right, bottom] = [Math.max(right, x + width), Math.max(bottom, y + height)];
  }
  return { width: right - left, height: bottom - top, aspect: (right - left) / (bottom - top) };
}

/** A layered left-to-right picture: node ids per column, top to bottom, and their positions. */
interface Grid {
  columns: string[][];
  positions: Positions;
  nodeSize: NodeSize;
}

/** Columns of any height at any distance (as ELK's layers), nodes at any gaps, columns centred anywhere. */
const gridArb: fc.Arbitrary<Grid> = fc
  .record({
    nodeSize: fc.constantFrom<NodeSize>(NODE_SIZE, { width: 100, height: 30 }),
    columns: fc.array(
      fc.record({
        // Mostly short layers, some tall ones: about a third of the pictures come back
        // unchanged, two thirds have layers split and a third are wrapped into bands.
        count: fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 3 },
          { arbitrary: fc.integer({ min: 1, max: 150 }), weight: 1 },
        ),
        top: fc.integer({ min: -2000, max: 2000 }),
        gaps: fc.array(fc.nat(120), { minLength: 1, maxLength: 4 }),
        gapBefore: fc.nat(300),
      }),
      { maxLength: 80 },
    ),
  })
  .map(({ nodeSize, columns }) => {
    const positions: Positions = Object.create(null);
    const ids: string[][] = [];
    let x = 0;
    columns.forEach(({ count, top, gaps, gapBefore }, c) => {
      x += gapBefore;
      const column: string[] = [];
      let y = top;
      for (let r = 0; r < count; r++) {
        const id = `${c}:${r}`;
        positions[id] = { x, y };
        column.push(id);
        y += nodeSize.height + gaps[r % gaps.length]!;
      }
      ids.push(column);
      x += nodeSize.width;
    });
    return { columns: ids, positions, nodeSize };
  });

const aspectArb = fc.double({ min: 0.5, max: 4, noNaN: true });

describe('wrapLayers on any layered picture', () => {
  it('places every node once, without overlaps, deterministically', () => {
    fc.assert(
      fc.property(gridArb, aspectArb, ({ positions, nodeSize }, aspect) => {
        const out = wrapLayers(positions, { nodeSize, aspect });
        expect(Object.keys(out)).toEqual(Object.keys(positions));
        for (const { x, y } of Object.values(out)) expect(Number.isFinite(x) && Number.isFinite(y)).toBe(true);
        expect(overlaps(out, nodeSize)).toEqual([]);
        expect(wrapLayers(positions, { nodeSize, aspect })).toEqual(out);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps each layer in order and together: left to right, then top to bottom', () => {
    fc.assert(
      fc.property(gridArb, aspectArb, ({ columns, positions, nodeSize }, aspect) => {
        const out = wrapLayers(positions, { nodeSize, aspect });
        for (const column of columns) {
          const read = [...column].sort((a, b) => out[a]!.x - out[b]!.x || out[a]!.y - out[b]!.y);
          expect(read).toEqual(column);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('splits only the layers above one row cap, into full sub-columns; the others move as a block', () => {
    fc.assert(
      fc.property(gridArb, aspectArb, ({ columns, positions, nodeSize }, aspect) => {
        const out = wrapLayers(positions, { nodeSize, aspect });
        const { width, height } = nodeSize;
        const split = columns.filter((column) => new Set(column.map((id) => out[id]!.x)).size > 1);
        const kept = columns.filter((column) => !split.includes(column));
        for (const column of kept) {
          const dx = out[column[0]!]!.x - positions[column[0]!]!.x;
          const dy = out[column[0]!]!.y - positions[column[0]!]!.y;
          for (const id of column) expect([out[id]!.x - positions[id]!.x, out[id]!.y - positions[id]!.y]).toEqual([dx, dy]);
        }
        if (split.length === 0) return;
        // The row cap R is the height of a split layer's first sub-column.
        const first = split[0]!;
        const rows = first.filter((id) => out[id]!.x === out[first[0]!]!.x).length;
        for (const column of kept) expect(column.length).toBeLessThanOrEqual(rows);
        for (const column of split) {
          expect(column.length).toBeGreaterThan(rows);
          const origin = out[column[0]!]!;
          column.forEach((id, j) => {
            expect(out[id]).toEqual({
              x: origin.x + Math.floor(j / rows) * (width + 40),
              y: origin.y + (j % rows) * (height + 40),
            });
          });
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('wrapLayers', () => {
  it('handles no nodes, one node and ids such as __proto__', () => {
    expect(wrapLayers({})).toEqual({});
    const one = wrapLayers(JSON.parse('{"__proto__": {"x": 5, "y": 7}}') as Positions);
    expect(Object.keys(one)).toEqual(['__proto__']);
    expect(one['__proto__']).toEqual({ x: 5, y: 7 });
  });

  it('returns a picture that already fits the screen unchanged', () => {
    // Three layers of three: 880 × 332 px, aspect 2.7 (under 2 × 16/10, so not wrapped).
    const positions: Positions = {};
    for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) positions[`${c}:${r}`] = { x: c * 320, y: r * 124 + c };
    expect(wrapLayers(positions)).toEqual(positions);
  });

  it('splits one very tall layer into sub-columns, filled top to bottom', () => {
    const positions: Positions = {};
    for (let i = 0; i < 1000; i++) positions[`t${i}`] = { x: 0, y: i * 124 };
    const out = wrapLayers(positions);
    const { aspect } = picture(out);
    expect(aspect).toBeGreaterThan(0.8);
    expect(aspect).toBeLessThan(3.2);
    // Column-major: the first sub-column holds t0, t1, … from the top.
    expect(out['t0']).toEqual({ x: 0, y: 0 });
    expect(out['t1']).toEqual({ x: 0, y: 124 });
  });

  it('wraps a very wide picture into bands read left to right, top to bottom, with a gap between bands', () => {
    const positions: Positions = {};
    for (let i = 0; i < 2000; i++) positions[`t${i}`] = { x: i * 320, y: 0 };
    const out = wrapLayers(positions);
    const { aspect } = picture(out);
    expect(aspect).toBeGreaterThan(0.8);
    expect(aspect).toBeLessThan(3.2);
    const bandTops = [...new Set(Object.values(out).map((p) => p.y))].sort((a, b) => a - b);
    expect(bandTops.length).toBeGreaterThan(1);
    for (let k = 1; k < bandTops.length; k++) expect(bandTops[k]! - bandTops[k - 1]!).toBeGreaterThanOrEqual(84 + 120);
    for (let i = 1; i < 2000; i++) {
      const [a, b] = [out[`t${i - 1}`]!, out[`t${i}`]!];
      // Next in the same band, 80 px on, or first of the next band.
      if (b.y === a.y) expect(b.x).toBe(a.x + 320);
      else expect([b.x, b.y > a.y]).toEqual([0, true]);
    }
  });

  // Its speed (fit_median_ms) is measured by `npm run bench`, not here.
  it('refits ~20,000 nodes of any shape into a screen-shaped picture with every node once and no overlaps', () => {
    const grid = (counts: number[]): Positions => {
      const positions: Positions = Object.create(null);
      let id = 0;
      counts.forEach((count, c) => {
        for (let r = 0; r < count; r++) positions[`t${id++}`] = { x: c * 320, y: r * 124 - count * 62 };
      });
      return positions;
    };
    const shapes = {
      chain: Array.from({ length: 20_000 }, () => 1),
      'one layer': [20_000],
      // Like a large synthetic plan: ~1,700 layers of 1–23 tasks.
      'many layers': Array.from({ length: 1_740 }, (_, i) => 1 + ((i * 7919) % 23)),
      'a huge layer among many small ones': [10_000, ...Array.from({ length: 10_000 }, () => 1)],
    };
    for (const [shape, counts] of Object.entries(shapes)) {
      const positions = grid(counts);
      const wrapped = wrapLayers(positions);
      const xs = Object.values(wrapped).map((p) => p.x);
      const ys = Object.values(wrapped).map((p) => p.y);
      const width = Math.max(...xs) - Math.min(...xs) + NODE_SIZE.width;
      const height = Math.max(...ys) - Math.min(...ys) + NODE_SIZE.height;
      expect({
        shape,
        placed: Object.keys(wrapped).length,
        overlaps: overlaps(wrapped, NODE_SIZE).length,
        screenShaped: width / height > 0.25 && width / height < 8,
      }).toEqual({ shape, placed: Object.keys(positions).length, overlaps: 0, screenShaped: true });
    }
  });
});

describe('layoutPositions on real layouts (ELK, or the layer sweeps for large plans)', () => {
  const laidOut = async (tasks: ReadonlyArray<LayoutTask>) => layOutGraph(elk, toElkGraph(tasks));

  function expectFitted(tasks: ReadonlyArray<LayoutTask>, positions: Positions) {
    expect(new Set(Object.keys(positions))).toEqual(new Set(tasks.map((t) => t.task_id)));
    for (const { x, y } of Object.values(positions)) expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
    expect(overlaps(positions, NODE_SIZE)).toEqual([]);
    const { aspect } = picture(positions);
    expect(aspect).toBeGreaterThan(0.8);
    expect(aspect).toBeLessThan(3.2);
  }

  // Measured: ELK draws it 8,501 × 234,320 px (aspect 0.036); refitted 11,440 × 7,524 (1.52).
  it('fits the WfCommons montage trace (one layer of 1,890 tasks) to the screen', { timeout: 120_000 }, async () => {
    const { tasks } = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
    const result = await laidOut(tasks);
    expect(picture(fromElkResult(result)).aspect).toBeLessThan(0.1);
    const positions = layoutPositions(result);
    expectFitted(tasks, positions);
    // Only split, not wrapped: every dependency still points right.
    for (const task of tasks) for (const dep of task.dependencies) expect(positions[dep]!.x).toBeLessThan(positions[task.task_id]!.x);
  });

  // Measured: ELK draws it 280,343 × 10,128 px (aspect 27.7); refitted 33,840 × 21,308 (1.59).
  it('fits a 10,000-task synthetic plan (~830 layers) to the screen', { timeout: 120_000 }, async () => {
    const tasks = syntheticPlan(10_000, 1);
    const result = await laidOut(tasks);
    expect(picture(fromElkResult(result)).aspect).toBeGreaterThan(10);
    expectFitted(tasks, layoutPositions(result));
  });

  it(`leaves plans of up to ${LARGE_GRAPH_TASKS} tasks as ELK drew them`, { timeout: 60_000 }, async () => {
    const tasks = syntheticPlan(LARGE_GRAPH_TASKS, 6);
    const result = await laidOut(tasks);
    const positions = fromElkResult(result);
    // wrapLayers would change this picture; the size threshold is what keeps it.
    expect(wrapLayers(positions)).not.toEqual(positions);
    expect(layoutPositions(result)).toEqual(positions);
  });
});
