import type { NodeSize, XYPosition } from './elk-graph';

/** Pairs of node boxes that overlap (sweep over x, so large layouts stay cheap); for the layout tests. */
export function overlaps(positions: Record<string, XYPosition>, { width, height }: NodeSize): string[] {
  const boxes = Object.entries(positions).sort((a, b) => a[1].x - b[1].x);
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    const [idA, a] = boxes[i]!;
    for (let j = i + 1; j < boxes.length && boxes[j]![1].x < a.x + width; j++) {
      const [idB, b] = boxes[j]!;
      if (b.y < a.y + height && a.y < b.y + height) found.push(`${idA} / ${idB}`);
    }
  }
  return found;
}
