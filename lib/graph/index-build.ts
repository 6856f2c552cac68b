/**
 * Compact graph index: compressed sparse row (CSR) adjacency in both directions.
 *
 * Complexity: O(T + D) time for T tasks and D dependency strings (one Map lookup
 * per dependency, no per-edge allocation), O(n + E) memory in typed arrays.
 *
 * Every other algorithm in lib/graph runs on this index instead of on the task
 * objects, so string hashing happens exactly once per edge and the hot loops walk
 * contiguous Int32Arrays.
 *
 * Edge direction: a dependency `d` listed by task `t` is the edge d → t
 * (prerequisite → dependent). `succ` follows that direction, `pred` reverses it.
 */

export interface GraphTaskInput {
  readonly task_id: string;
  readonly dependencies: readonly string[];
}

export interface GraphIndex {
  /** Node index → task id (first occurrence of each id, in input order). */
  readonly ids: string[];
  readonly idToIndex: Map<string, number>;
  /** Number of nodes (distinct task ids). */
  readonly n: number;
  /** Successors of node i are succ[succOffsets[i] .. succOffsets[i + 1]). Length n + 1. */
  readonly succOffsets: Int32Array;
  readonly succ: Int32Array;
  /** Predecessors of node i are pred[predOffsets[i] .. predOffsets[i + 1]), in dependency order. */
  readonly predOffsets: Int32Array;
  readonly pred: Int32Array;
  readonly edgeCount: number;
  /** Dependencies naming no known task; they produce no edge. `task` is a node index. */
  readonly missing: Array<{ task: number; dependency: string }>;
  /** Task ids that occur more than once, each listed once; the first occurrence wins. */
  readonly duplicates: string[];
  /** Node indexes of tasks that depend on themselves; no edge is created for them. */
  readonly selfLoops: number[];
}

/**
 * Builds the CSR index. Never throws on malformed plans: missing dependencies,
 * duplicate ids and self-dependencies are recorded so validation can report them,
 * and the graph is built from what remains.
 *
 * Later occurrences of a duplicated task id are ignored entirely (their
 * dependencies are neither edges nor `missing` entries), because the id can only
 * name one node.
 */
export function buildGraphIndex(tasks: ReadonlyArray<GraphTaskInput>): GraphIndex {
  const taskCount = tasks.length;
  let idToIndex = new Map<string, number>();
  let ids: string[] = [];
  const duplicates: string[] = [];
  // source[v] = position in `tasks` of node v's first occurrence; null while they coincide.
  let source: Int32Array | null = null;

  // Fast path: one Map operation per task. Plans almost never repeat an id, and a
  // size check after the loop detects when one did, instead of a has() per task.
  for (let t = 0; t < taskCount; t++) {
    const id = tasks[t]!.task_id;
    idToIndex.set(id, t);
    ids.push(id);
  }
  if (idToIndex.size !== taskCount) {
    // Slow path, only for plans with duplicates: rebuild so the first occurrence wins.
    idToIndex = new Map();
    ids = [];
    source = new Int32Array(taskCount);
    const reported = new Set<string>();
    for (let t = 0; t < taskCount; t++) {
      const id = tasks[t]!.task_id;
      if (idToIndex.has(id)) {
        if (!reported.has(id)) {
          reported.add(id);
          duplicates.push(id);
        }
        continue;
      }
      source[ids.length] = t;
      idToIndex.set(id, ids.length);
      ids.push(id);
    }
  }

  const n = ids.length;
  let depTotal = 0;
  for (let v = 0; v < n; v++) depTotal += tasks[source === null ? v : source[v]!]!.dependencies.length;
  // Edge list in pred order; sized for the worst case so the loop never reallocates.
  const edgeFrom = new Int32Array(depTotal);
  const edgeTo = new Int32Array(depTotal);
  const outDeg = new Int32Array(n + 1);
  const predOffsets = new Int32Array(n + 1);
  // seenBy[u] === v + 1 means u was already taken as a dependency of v: dedupes
  // repeated dependency strings in O(1) without a per-task Set.
  const seenBy = new Int32Array(n);
  const missing: Array<{ task: number; dependency: string }> = [];
  const selfLoops: number[] = [];
  let m = 0;

  for (let v = 0; v < n; v++) {
    predOffsets[v] = m;
    const deps = tasks[source === null ? v : source[v]!]!.dependencies;
    const stamp = v + 1;
    let selfSeen = false;
    for (let k = 0; k < deps.length; k++) {
      const dep = deps[k]!;
      const u = idToIndex.get(dep);
      if (u === undefined) {
        missing.push({ task: v, dependency: dep });
        continue;
      }
      if (u === v) {
        if (!selfSeen) {
          selfSeen = true;
          selfLoops.push(v);
        }
        continue;
      }
      if (seenBy[u] === stamp) continue;
      seenBy[u] = stamp;
      edgeFrom[m] = u;
      edgeTo[m] = v;
      outDeg[u]!++;
      m++;
    }
  }
  predOffsets[n] = m;

  // Without dropped dependencies the edge list is already exactly the pred array.
  const pred = m === depTotal ? edgeFrom : edgeFrom.slice(0, m);
  const succOffsets = new Int32Array(n + 1);
  let acc = 0;
  for (let u = 0; u < n; u++) {
    succOffsets[u] = acc;
    acc += outDeg[u]!;
  }
  succOffsets[n] = acc;
  // Reuse outDeg as the per-node fill cursor to avoid another allocation.
  const cursor = outDeg;
  cursor.set(succOffsets.subarray(0, n));
  const succ = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    succ[cursor[edgeFrom[e]!]!++] = edgeTo[e]!;
  }

  return {
    ids,
    idToIndex,
    n,
    succOffsets,
    succ,
    predOffsets,
    pred,
    edgeCount: m,
    missing,
    duplicates,
    selfLoops,
  };
}
