/**
 * A binary min-heap of integer ids over an Int32Array, ordered by a caller-given
 * comparator: `before(a, b)` is true when a must come out before b. The comparator
 * should be a strict total order on the ids in the heap (break ties, e.g. by the
 * lower id) so that the pop order is fully determined.
 *
 * The comparator may read keys that change while an id is in the heap, provided
 * the caller then calls `update(id)`, which needs position tracking (see the
 * constructor).
 *
 * Capacity is fixed; pushing past it is a caller error (not checked in the hot
 * path). Allocation happens once, in the constructor, so a heap can be cleared
 * and reused across runs.
 */
export class IntHeap {
  private readonly items: Int32Array;
  /** Position of each id in `items`, -1 when absent; null without position tracking. */
  private readonly pos: Int32Array | null;
  private readonly before: (a: number, b: number) => boolean;
  private count = 0;

  /**
   * @param capacity the most ids held at once
   * @param before true when id a goes before id b
   * @param idLimit when given, ids are in 0 .. idLimit-1 and the heap tracks where
   *   each id sits, enabling `has` and `update`
   */
  constructor(capacity: number, before: (a: number, b: number) => boolean, idLimit?: number) {
    this.items = new Int32Array(capacity);
    this.before = before;
    this.pos = idLimit === undefined ? null : new Int32Array(idLimit).fill(-1);
  }

  /** Number of ids in the heap. */
  get size(): number {
    return this.count;
  }

  /** The first id; only meaningful when size > 0. */
  peek(): number {
    return this.items[0]!;
  }

  push(v: number): void {
    this.siftUp(this.count++, v);
  }

  /** Removes and returns the first id; only valid when size > 0. */
  pop(): number {
    const items = this.items;
    const top = items[0]!;
    if (this.pos !== null) this.pos[top] = -1;
    const size = --this.count;
    if (size > 0) this.siftUp(this.sinkHole(0), items[size]!);
    return top;
  }

  /** Empties the heap, keeping its storage. */
  clear(): void {
    const pos = this.pos;
    if (pos !== null) for (let i = 0; i < this.count; i++) pos[this.items[i]!] = -1;
    this.count = 0;
  }

  /** Whether id v is in the heap (needs position tracking). */
  has(v: number): boolean {
    return this.pos![v]! >= 0;
  }

  /** Restores the order after the key of id v (in the heap) changed (needs position tracking). */
  update(v: number): void {
    const i = this.pos![v]!;
    // Not moved up: its parent still goes first, so it settles at or below i.
    if (this.siftUp(i, v) === i) this.siftUp(this.sinkHole(i), v);
  }

  /** Places v at hole i or above it; returns where v landed. */
  private siftUp(i: number, v: number): number {
    const { items, pos, before } = this;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = items[p]!;
      if (!before(v, u)) break;
      items[i] = u;
      if (pos !== null) pos[u] = i;
      i = p;
    }
    items[i] = v;
    if (pos !== null) pos[v] = i;
    return i;
  }

  /**
   * Moves the hole at i down to a leaf, lifting the first child each level, and
   * returns the leaf. One comparison per level: the element that fills the hole
   * then sifts up from there, and usually belongs near the bottom (Floyd).
   */
  private sinkHole(i: number): number {
    const { items, pos, before } = this;
    const size = this.count;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return i;
      const r = l + 1;
      const c = r < size && before(items[r]!, items[l]!) ? r : l;
      const u = items[c]!;
      items[i] = u;
      if (pos !== null) pos[u] = i;
      i = c;
    }
  }
}
