/**
 * Cycle detection with the cycle path: iterative three-colour depth-first search.
 *
 * Complexity: O(n + E) time, O(n) memory (typed arrays only).
 *
 * The DFS keeps an explicit stack plus a per-node edge cursor instead of
 * recursing, so a 100k-long dependency chain cannot overflow the call stack.
 * When an edge reaches a node that is still on the stack (grey), the stack
 * segment from that node to the top is exactly one cycle.
 */

import type { GraphIndex } from './index-build';

const WHITE = 0;
const GREY = 1;
const BLACK = 2;

/**
 * Returns one cycle as task ids in edge order, or null when the graph is acyclic.
 *
 * Convention: `[a, b, c]` means a → b → c → a (each id is a prerequisite of the
 * next, and the last is a prerequisite of the first). Ids are distinct; the
 * closing id is not repeated. Self-dependencies are not edges in the index
 * (see `GraphIndex.selfLoops`), so they are never reported here.
 *
 * Deterministic: roots are tried in node index order and successors in CSR order.
 */
export function findCycle(index: GraphIndex): string[] | null {
  const { n, succOffsets, succ, ids } = index;
  const colour = new Uint8Array(n);
  const cursor = new Int32Array(n);
  const stack = new Int32Array(n);
  // Where each grey node sits on the stack, so the cycle slice is found without a scan.
  const stackPos = new Int32Array(n);

  for (let root = 0; root < n; root++) {
    if (colour[root] !== WHITE) continue;
    let top = 0;
    stack[0] = root;
    stackPos[root] = 0;
    colour[root] = GREY;
    cursor[root] = succOffsets[root]!;

    while (top >= 0) {
      const v = stack[top]!;
      const end = succOffsets[v + 1]!;
      let e = cursor[v]!;
      let descended = false;
      while (e < end) {
        const w = succ[e++]!;
        const c = colour[w]!;
        if (c === WHITE) {
          cursor[v] = e;
          colour[w] = GREY;
          cursor[w] = succOffsets[w]!;
          stackPos[w] = ++top;
          stack[top] = w;
          descended = true;
          break;
        }
        if (c === GREY) {
          const from = stackPos[w]!;
          const cycle = new Array<string>(top - from + 1);
          for (let k = from; k <= top; k++) cycle[k - from] = ids[stack[k]!]!;
          return cycle;
        }
      }
      if (!descended) {
        colour[v] = BLACK;
        top--;
      }
    }
  }
  return null;
}
