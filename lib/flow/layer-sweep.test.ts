import fc from 'fast-check';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { describe, expect, it } from 'vitest';
import { ELK_SPACING, NODE_SIZE } from './elk-graph';
import { sweepLayers } from './layer-sweep';

// The large-plan layout orders each layer's tasks to cross few dependencies: what the
// operator sees is a picture whose edges tangle less than the plan's own order, never more.

const { width, height } = NODE_SIZE;

/** A pre-layered graph as toElkGraph makes one: `layers` of task ids, edges as [from, to]. */
function graphOf(layers: string[][], edges: Array<[string, string]>): ElkNode {
  return {
    id: 'root',
    children: layers.flatMap((ids, layer) => ids.map((id) => ({ id, width, height, x: layer * (width + 1), y: 0 }))),
    edges: edges.map(([from, to], i) => ({ id: `e${i}`, sources: [from], targets: [to] })),
  };
}

/** Crossings between adjacent layers, each layer read top to bottom. */
function crossingsOf(layers: string[][], edges: Array<[string, string]>, y: (id: string) => number): number {
  let count = 0;
  const layerOf = new Map(layers.flatMap((ids, l) => ids.map((id) => [id, l] as const)));
  for (const [a, b] of edges) {
    for (const [c, d] of edges) {
      if (layerOf.get(a) !== layerOf.get(c) || a === c || b === d) continue;
      if (y(a) < y(c) && y(b) > y(d)) count++;
    }
  }
  return count;
}

const yIn = (result: ElkNode) => {
  const ys = new Map(result.children!.map((child) => [child.id, child.y!]));
  return (id: string) => ys.get(id)!;
};

describe('sweepLayers', () => {
  it('uncrosses two dependencies the plan lists crossed', () => {
    const layers = [['a', 'b'], ['x', 'y']];
    const edges: Array<[string, string]> = [['a', 'y'], ['b', 'x']];
    expect(crossingsOf(layers, edges, (id) => ['a', 'b', 'x', 'y'].indexOf(id))).toBe(1);
    const result = sweepLayers(graphOf(layers, edges));
    expect(crossingsOf(layers, edges, yIn(result))).toBe(0);
    // Every task, in the input order, a column per layer.
    expect(result.children!.map((child) => [child.id, child.x])).toEqual([
      ['a', 0],
      ['b', 0],
      ['x', width + ELK_SPACING.betweenLayers],
      ['y', width + ELK_SPACING.betweenLayers],
    ]);
  });

  it('never crosses more dependencies than the plan’s own order, nor overlaps tasks, the same every time', () => {
    const plan = fc
      .array(fc.integer({ min: 1, max: 8 }), { minLength: 2, maxLength: 6 })
      .chain((sizes) => {
        const layers = sizes.map((size, l) => Array.from({ length: size }, (_, i) => `t${l}_${i}`));
        const pairs = layers.slice(1).flatMap((ids, l) => layers[l]!.flatMap((from) => ids.map((to) => [from, to] as [string, string])));
        return fc.tuple(fc.constant(layers), fc.subarray(pairs));
      });
    fc.assert(
      fc.property(plan, ([layers, edges]) => {
        const inputOrder = new Map(layers.flat().map((id, i) => [id, i]));
        const result = sweepLayers(graphOf(layers, edges));
        expect(crossingsOf(layers, edges, yIn(result))).toBeLessThanOrEqual(crossingsOf(layers, edges, (id) => inputOrder.get(id)!));
        expect(sweepLayers(graphOf(layers, edges))).toEqual(result);
        for (const ids of layers) {
          const ys = ids.map(yIn(result)).sort((a, b) => a - b);
          for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(height + ELK_SPACING.nodeNode);
        }
      }),
    );
  });

  it('keeps room in the middle layer for a dependency that spans it', () => {
    // a → c passes through layer 1 beside b, so the layer holds b and the edge's slot.
    const result = sweepLayers(graphOf([['a'], ['b'], ['c']], [['a', 'b'], ['b', 'c'], ['a', 'c']]));
    const y = yIn(result);
    expect(result.children).toHaveLength(3);
    expect(y('b')).not.toBe(y('a'));
  });
});
