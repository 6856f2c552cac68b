import { describe, expect, it } from 'vitest';
import { IntHeap } from './int-heap';

function drain(heap: IntHeap): number[] {
  const out: number[] = [];
  while (heap.size > 0) out.push(heap.pop());
  return out;
}

describe('IntHeap', () => {
  it('pops in comparator order, ties broken by the comparator', () => {
    const key = [5, 1, 5, 3, 1, 9, 3, 0];
    // Higher key first, then lower id.
    const heap = new IntHeap(key.length, (a, b) => key[a]! > key[b]! || (key[a] === key[b] && a < b));
    for (const v of [6, 2, 7, 0, 4, 5, 1, 3]) heap.push(v);
    expect(heap.size).toBe(8);
    expect(heap.peek()).toBe(5);
    expect(drain(heap)).toEqual([5, 0, 2, 3, 6, 1, 4, 7]);
  });

  it('clears and is reused with the same capacity', () => {
    const heap = new IntHeap(4, (a, b) => a < b);
    for (const v of [3, 1, 2, 0]) heap.push(v);
    expect(heap.pop()).toBe(0);
    heap.clear();
    expect(heap.size).toBe(0);
    for (const v of [2, 3, 0, 1]) heap.push(v);
    expect(drain(heap)).toEqual([0, 1, 2, 3]);
  });

  it('tracks positions: has, update after a key change, clear', () => {
    const key = [10, 20, 30, 40, 50];
    const heap = new IntHeap(5, (a, b) => key[a]! < key[b]! || (key[a] === key[b] && a < b), 5);
    for (let v = 0; v < 5; v++) heap.push(v);
    expect(heap.has(3)).toBe(true);
    key[4] = 0; // improves: moves up
    heap.update(4);
    key[0] = 35; // worsens: moves down
    heap.update(0);
    key[2] = 20; // ties with 1, lower id first
    heap.update(2);
    expect(heap.pop()).toBe(4);
    expect(heap.has(4)).toBe(false);
    expect(drain(heap)).toEqual([1, 2, 0, 3]);
    heap.push(3);
    heap.push(1);
    heap.clear();
    expect(heap.has(3)).toBe(false);
    expect(heap.has(1)).toBe(false);
    heap.push(1);
    expect(heap.has(1)).toBe(true);
    expect(drain(heap)).toEqual([1]);
  });

  it('agrees with sorting on random input', () => {
    let seed = 12345;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    const key = Array.from({ length: 300 }, () => Math.floor(rand() * 20));
    const heap = new IntHeap(300, (a, b) => key[a]! < key[b]! || (key[a] === key[b] && a < b));
    const ids = Array.from({ length: 300 }, (_, i) => i).sort(() => rand() - 0.5);
    for (const v of ids) heap.push(v);
    const expected = [...ids].sort((a, b) => key[a]! - key[b]! || a - b);
    expect(drain(heap)).toEqual(expected);
  });
});
