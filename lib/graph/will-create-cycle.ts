/**
 * Interactive cycle guard: would adding one dependency edge close a cycle?
 * Breadth-first search from the new edge's head, stopping at the first hit.
 *
 * Complexity: O(n + E) worst case, but the search only explores what `to`
 * already reaches and stops as soon as it meets `from`; typical editor checks on
 * a 10k-task plan finish well under a millisecond.
 */

import type { GraphIndex } from './index-build';
import { shortestPath } from './reachability';

/**
 * Checks the edge from → to ("`to` would depend on `from`") against the current
 * graph. It closes a cycle iff from === to or `from` is already reachable from `to`.
 *
 * Convention: the cycle is returned as a *closed* path starting with the new
 * edge, `[from, to, …, from]`: first and last entries are both `fromId`, and every
 * consecutive pair is an edge of the graph once the new edge is added. A
 * self-dependency yields `[from, from]`. The path after the new edge is a shortest
 * one, so the operator sees the tightest loop. Returns null when the edge is safe
 * (including when it already exists in an acyclic graph).
 *
 * Throws when either id is not a task of the index: the caller is asking about a
 * node the graph does not know, which is a programming error, not a cycle.
 */
export function willCreateCycle(
  index: GraphIndex,
  fromId: string,
  toId: string,
): { cycle: string[] } | null {
  const from = index.idToIndex.get(fromId);
  if (from === undefined) throw new Error(`willCreateCycle: unknown task id "${fromId}" (edge source)`);
  const to = index.idToIndex.get(toId);
  if (to === undefined) throw new Error(`willCreateCycle: unknown task id "${toId}" (edge target)`);
  if (from === to) return { cycle: [fromId, fromId] };
  const back = shortestPath(index, to, from);
  if (back === null) return null;
  const cycle = new Array<string>(back.length + 1);
  cycle[0] = fromId;
  for (let k = 0; k < back.length; k++) cycle[k + 1] = index.ids[back[k]!]!;
  return { cycle };
}
