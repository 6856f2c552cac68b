/**
 * Refits a large layered layout to a screen-shaped picture.
 *
 * Why it exists: the fast ELK layout (elk-graph.ts) draws one column per layer. Real
 * plans have huge layers (the WfCommons montage trace puts 1,890 of its 2,122 tasks in
 * one) or hundreds of layers (a 10,000-task synthetic plan has ~830), so the picture
 * came out ~230,000 px tall or ~280,000 px wide: fitted to the screen, nodes were
 * specks and the minimap a dot. This post-pass keeps ELK's layers and their order and
 * only rearranges whole columns:
 * 1. a layer with more than R nodes is split into adjacent sub-columns of R nodes,
 *    filled top to bottom, in ELK's order;
 * 2. a picture still much wider than the screen is wrapped, like text, into bands of
 *    consecutive layers stacked top to bottom.
 * R and the band width are chosen so the result needs the least zooming out on a
 * screen of the requested aspect ratio, with a penalty for splitting. Pure and
 * O(n log n): a few ms for a 10,000-task plan, ≤ ~30 ms (CPU) for 20,000 tasks of any shape.
 */

import type { ElkNode } from 'elkjs/lib/elk-api';
import { fromElkResult, LARGE_GRAPH_TASKS, NODE_SIZE, type NodeSize, type XYPosition } from './elk-graph';

export interface WrapOptions {
  nodeSize?: NodeSize;
  /** Width / height of the screen the picture should fit; 16:10 by default. */
  aspect?: number;
}

/** ELK's node spacing (elk.spacing.nodeNode). */
const NODE_GAP = 40;
/** ELK's gap between layers (elk.layered.spacing.nodeNodeBetweenLayers). */
const LAYER_GAP = 80;
/** Narrower than LAYER_GAP, so the sub-columns of one layer read as one block. */
const SUB_COLUMN_GAP = 40;
/** Wider than any gap inside a band, so the bands read as separate lines. */
const BAND_GAP = 200;
/** Wrapping puts long edges between bands, so it is only worth it for a picture this many times wider than the screen. */
const WRAP_ABOVE = 2;
/** Row caps whose pictures are within this factor of the best are equally good; the largest (fewest splits) wins. */
const COST_TOLERANCE = 1.02;
/**
 * Splitting a layer makes its edges cross its own sub-columns, so a row cap's cost is
 * raised by this fraction of the share of nodes it moves into sub-columns: splitting
 * every layer must shrink the picture by a third to win, while a picture that needs a
 * huge layer split anyway barely changes.
 */
const SPLIT_PENALTY = 0.5;
/** Growth of the tallest layer's sub-column count between candidate row caps (one by one up to 20). */
const SPLIT_GROWTH = 1.05;

/** One layer column of the input, its nodes in top-to-bottom order. */
interface Column {
  /** Offset of its first node in `members`. */
  start: number;
  count: number;
  left: number;
  top: number;
  /** Width and height of the column as ELK drew it. */
  span: number;
  extent: number;
}

interface Plan {
  /** Row cap: columns with more nodes are split. */
  rows: number;
  /** Band width limit; Infinity when the picture is not wrapped. */
  bandWidth: number;
  cost: number;
}

/**
 * Groups node indices into columns: nodes whose boxes share some x range with the
 * column's leftmost node belong to it (ELK puts a layer's nodes at one x).
 */
function columnsOf(xs: Float64Array, ys: Float64Array, width: number): { columns: Column[]; members: Int32Array } {
  const n = xs.length;
  const byX = Array.from({ length: n }, (_, i) => i);
  // Ties fall back to the input order, so the result does not depend on the sort.
  byX.sort((a, b) => xs[a]! - xs[b]! || ys[a]! - ys[b]! || a - b);
  const members = new Int32Array(n);
  const columns: Column[] = [];
  let k = 0;
  while (k < n) {
    const start = k;
    const left = xs[byX[k]!]!;
    while (k < n && xs[byX[k]!]! < left + width) k++;
    const right = xs[byX[k - 1]!]!;
    // Nodes at one x are already in top-to-bottom order.
    const slice = right === left ? byX.slice(start, k) : byX.slice(start, k).sort((a, b) => ys[a]! - ys[b]! || xs[a]! - xs[b]! || a - b);
    let top = Infinity;
    let bottom = -Infinity;
    for (let j = 0; j < slice.length; j++) {
      const i = slice[j]!;
      members[start + j] = i;
      top = Math.min(top, ys[i]!);
      bottom = Math.max(bottom, ys[i]!);
    }
    columns.push({ start, count: k - start, left, top, span: right - left + width, extent: bottom - top });
  }
  return { columns, members };
}

/**
 * Rearranges a layered left-to-right layout (top-left node positions) so it fits a
 * screen of `aspect`: splits layers taller than a row cap into sub-columns and wraps a
 * very wide picture into bands. A layer keeps its nodes' order (column-major when
 * split) and its nodes stay together; columns that are not split move as a block.
 * A layout that already fits is returned unchanged. Deterministic.
 */
export function wrapLayers(positions: Readonly<Record<string, XYPosition>>, options: WrapOptions = {}): Record<string, XYPosition> {
  const { width, height } = options.nodeSize ?? NODE_SIZE;
  const aspect = options.aspect ?? 16 / 10;
  const ids = Object.keys(positions);
  const n = ids.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  ids.forEach((id, i) => {
    xs[i] = positions[id]!.x;
    ys[i] = positions[id]!.y;
  });
  const { columns, members } = columnsOf(xs, ys, width);
  const count = columns.length;

  const blockWidth = new Float64Array(count);
  const blockHeight = new Float64Array(count);
  const stackHeight = (rows: number) => rows * height + (rows - 1) * NODE_GAP;
  let penalty = 1;
  const measure = (rows: number) => {
    let moved = 0;
    for (let c = 0; c < count; c++) {
      const column = columns[c]!;
      if (column.count <= rows) {
        blockWidth[c] = column.span;
        blockHeight[c] = column.extent + height;
      } else {
        const subColumns = Math.ceil(column.count / rows);
        blockWidth[c] = subColumns * width + (subColumns - 1) * SUB_COLUMN_GAP;
        blockHeight[c] = stackHeight(rows);
        moved += column.count;
      }
    }
    penalty = 1 + (SPLIT_PENALTY * moved) / n;
  };
  /** Size of the picture when blocks are wrapped at `limit` px (Infinity: one band). */
  const wrapped = (limit: number): [number, number] => {
    let pictureWidth = 0;
    let pictureHeight = 0;
    let lineWidth = 0;
    let lineHeight = 0;
    for (let c = 0; c < count; c++) {
      if (lineWidth > 0 && lineWidth + LAYER_GAP + blockWidth[c]! > limit) {
        pictureWidth = Math.max(pictureWidth, lineWidth);
        pictureHeight += lineHeight + BAND_GAP;
        lineWidth = 0;
        lineHeight = 0;
      }
      lineWidth += (lineWidth > 0 ? LAYER_GAP : 0) + blockWidth[c]!;
      lineHeight = Math.max(lineHeight, blockHeight[c]!);
    }
    return [Math.max(pictureWidth, lineWidth), pictureHeight + lineHeight];
  };
  // How far the picture must be zoomed out to fit the screen (the larger of its width
  // and its height in screen-widths), made worse by splitting.
  const cost = ([w, h]: [number, number]) => Math.max(w, aspect * h) * penalty;

  /**
   * The best band width for the current blocks, or null when no band width can bring
   * the cost under `bound` (checked first, so hopeless row caps cost O(layers)).
   */
  const bestWrap = (rows: number, bound: number): Plan | null => {
    const one = wrapped(Infinity);
    if (one[0] <= WRAP_ABOVE * aspect * one[1]) return { rows, bandWidth: Infinity, cost: cost(one) };
    let widest = 0;
    let area = 0;
    for (let c = 0; c < count; c++) {
      widest = Math.max(widest, blockWidth[c]!);
      area += blockWidth[c]! * blockHeight[c]!;
    }
    // Bands are no narrower than the widest block and hold no more than their area.
    if (Math.max(widest, Math.sqrt(aspect * area)) * penalty >= bound) return null;
    // Narrower bands make the picture narrower and taller. Bisect (geometrically, to
    // 1%) between a band width at which it is narrower than the screen and one at
    // which it is not, then keep the better end.
    let lo = widest;
    let hi = one[0];
    let atLo = wrapped(lo);
    let atHi = one;
    if (atLo[0] >= aspect * atLo[1]) return { rows, bandWidth: lo, cost: cost(atLo) };
    while (hi > lo * 1.01) {
      const mid = Math.sqrt(lo * hi);
      const atMid = wrapped(mid);
      if (atMid[0] >= aspect * atMid[1]) [hi, atHi] = [mid, atMid];
      else [lo, atLo] = [mid, atMid];
    }
    return cost(atLo) < cost(atHi) ? { rows, bandWidth: lo, cost: cost(atLo) } : { rows, bandWidth: hi, cost: cost(atHi) };
  };

  let tallest = 0;
  for (const column of columns) tallest = Math.max(tallest, column.count);
  // Row caps that split the tallest layer into 1, 2, 3, … even sub-columns, then into
  // 5% more each time: a few dozen candidates, each O(layers · log) at most.
  const plans: Plan[] = [];
  let bound = Infinity;
  for (let splits = 1, last = Infinity; splits <= tallest; splits = Math.ceil(splits * SPLIT_GROWTH)) {
    const rows = Math.ceil(tallest / splits);
    if (rows >= last) continue;
    last = rows;
    measure(rows);
    const plan = bestWrap(rows, bound);
    if (!plan) continue;
    plans.push(plan);
    bound = Math.min(bound, plan.cost * COST_TOLERANCE);
  }
  let least = Infinity;
  for (const plan of plans) least = Math.min(least, plan.cost);
  const plan = plans.find((p) => p.cost <= least * COST_TOLERANCE);
  // No prototype, so a task id such as `__proto__` is stored like any other.
  const result: Record<string, XYPosition> = Object.create(null);
  if (!plan || (plan.rows >= tallest && plan.bandWidth === Infinity)) {
    for (const id of ids) result[id] = { ...positions[id]! };
    return result;
  }

  measure(plan.rows);
  // Lay the blocks out in bands, each block centred vertically in its band as ELK
  // centres its layers.
  const blockX = new Float64Array(count);
  const band = new Int32Array(count);
  const bandHeights: number[] = [];
  let lineWidth = 0;
  for (let c = 0; c < count; c++) {
    if (lineWidth > 0 && lineWidth + LAYER_GAP + blockWidth[c]! > plan.bandWidth) lineWidth = 0;
    if (lineWidth === 0) bandHeights.push(0);
    if (lineWidth > 0) lineWidth += LAYER_GAP;
    blockX[c] = lineWidth;
    band[c] = bandHeights.length - 1;
    bandHeights[band[c]!] = Math.max(bandHeights[band[c]!]!, blockHeight[c]!);
    lineWidth += blockWidth[c]!;
  }
  const bandTops: number[] = [];
  let y = 0;
  for (const h of bandHeights) {
    bandTops.push(y);
    y += h + BAND_GAP;
  }

  const placed = new Array<XYPosition>(n);
  for (let c = 0; c < count; c++) {
    const column = columns[c]!;
    const top = bandTops[band[c]!]! + Math.floor((bandHeights[band[c]!]! - blockHeight[c]!) / 2);
    for (let j = 0; j < column.count; j++) {
      const i = members[column.start + j]!;
      if (column.count <= plan.rows) {
        placed[i] = { x: blockX[c]! + xs[i]! - column.left, y: top + ys[i]! - column.top };
      } else {
        const sub = Math.floor(j / plan.rows);
        const row = j - sub * plan.rows;
        placed[i] = { x: blockX[c]! + sub * (width + SUB_COLUMN_GAP), y: top + row * (height + NODE_GAP) };
      }
    }
  }
  // Keys in the input's order, as fromElkResult returns them.
  ids.forEach((id, i) => (result[id] = placed[i]!));
  return result;
}

/**
 * Node positions for the canvas from a graph ELK has laid out with toElkGraph's
 * options: ELK's own picture for plans of up to LARGE_GRAPH_TASKS tasks, refitted by
 * wrapLayers above (only the fast layout has layers huge or many enough to need it).
 */
export function layoutPositions(result: ElkNode, nodeSize: NodeSize = NODE_SIZE): Record<string, XYPosition> {
  const positions = fromElkResult(result);
  return (result.children?.length ?? 0) > LARGE_GRAPH_TASKS ? wrapLayers(positions, { nodeSize }) : positions;
}
