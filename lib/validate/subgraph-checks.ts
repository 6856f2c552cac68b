import { buildGraphIndex, findCycle, type GraphIndex, type GraphTaskInput } from '@/lib/graph';
import type { SubGraph } from '@/lib/plan';
import type { ValidationIssue } from './issue';

// Checks on a plan's grouping into subgraphs (seed 000's SubGraph: a unit dispatched as
// one, waiting on the subgraphs in its depends_on). A plan need not be grouped: no
// subgraphs, no issues. Once grouped, three invariants hold:
// - every task is in exactly one subgraph;
// - a subgraph's depends_on is exactly the set of other subgraphs holding a direct
//   prerequisite of one of its tasks;
// - the subgraphs wait on each other acyclically.
//
// Complexity: O(T + E + S + D) for T tasks, E dependency edges, S subgraphs and D
// depends_on entries.

/** The issue codes this check uses (listed with the others in ./issue). */
export type SubgraphIssueCode = Extract<ValidationIssue['code'], `subgraph_${string}`>;
export type SubgraphIssue = ValidationIssue & { code: SubgraphIssueCode };

/** At most this many ids are spelled out in one message; the rest are counted. */
const LISTED = 8;

function quoteList(items: readonly string[]): string {
  const shown = items.slice(0, LISTED).map((s) => `"${s}"`);
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

function plainList(items: readonly string[]): string {
  const shown = items.slice(0, LISTED);
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

/**
 * Every issue in the grouping of a plan into subgraphs, as errors (an empty subgraph is
 * only a warning). `index` is the plan's graph index (buildGraphIndex of `tasks`); the
 * checks read ids and edges from it alone, `tasks` (PlannerTask[] fits) is taken for
 * symmetry with the other checks.
 *
 * When a task is listed more than once, or two subgraphs share an id, depends_on cannot
 * be checked (a dependency would name two subgraphs), so only those problems are reported
 * until they are fixed.
 */
export function subgraphIssues(
  _tasks: readonly GraphTaskInput[],
  index: GraphIndex,
  subgraphs: readonly SubGraph[],
): SubgraphIssue[] {
  if (subgraphs.length === 0) return [];
  const issues: SubgraphIssue[] = [];
  const { n, ids, idToIndex, predOffsets, pred } = index;
  const count = subgraphs.length;

  /** Known tasks of each subgraph, as node indexes, in listed order. */
  const members: number[][] = subgraphs.map((sg) => {
    const known: number[] = [];
    for (const id of sg.task_ids) {
      const v = idToIndex.get(id);
      if (v !== undefined) known.push(v);
    }
    return known;
  });
  const memberIds = (s: number): string[] => members[s]!.map((v) => ids[v]!);

  // Subgraph ids.
  const positionOf = new Map<string, number>();
  const usedBy = new Map<string, number[]>();
  subgraphs.forEach((sg, s) => {
    const users = usedBy.get(sg.subgraph_id);
    if (users) users.push(s);
    else {
      usedBy.set(sg.subgraph_id, [s]);
      positionOf.set(sg.subgraph_id, s);
    }
  });
  let duplicateIds = 0;
  for (const [id, users] of usedBy) {
    if (users.length < 2) continue;
    duplicateIds++;
    issues.push({
      severity: 'error',
      code: 'subgraph_duplicate_id',
      message: `Subgraph id "${id}" is used by ${users.length} subgraphs; subgraph ids must be unique`,
      task_ids: users.flatMap(memberIds),
    });
  }

  // Membership: each task in exactly one subgraph, every listed id a task.
  const owner = new Int32Array(n).fill(-1);
  /** Tasks listed more than once → every subgraph position listing them, with repeats. */
  const listings = new Map<number, number[]>();
  subgraphs.forEach((sg, s) => {
    const unknown: string[] = [];
    for (const id of sg.task_ids) {
      const v = idToIndex.get(id);
      if (v === undefined) {
        unknown.push(id);
        continue;
      }
      const o = owner[v]!;
      if (o === -1) owner[v] = s;
      else {
        const where = listings.get(v);
        if (where) where.push(s);
        else listings.set(v, [o, s]);
      }
    }
    if (unknown.length > 0) {
      issues.push({
        severity: 'error',
        code: 'subgraph_unknown_task',
        message: `Subgraph "${sg.subgraph_id}" lists ${unknown.length === 1 ? 'task' : 'tasks'} ${quoteList(unknown)}, which ${unknown.length === 1 ? 'is' : 'are'} not in the plan`,
        task_ids: memberIds(s),
      });
    }
    if (sg.task_ids.length === 0) {
      issues.push({
        severity: 'warning',
        code: 'subgraph_empty',
        message: `Subgraph "${sg.subgraph_id}" has no tasks`,
        task_ids: [],
      });
    }
  });
  for (const [v, where] of listings) {
    const names = [...new Set(where)].map((s) => subgraphs[s]!.subgraph_id);
    issues.push({
      severity: 'error',
      code: 'subgraph_coverage',
      message:
        names.length === 1
          ? `Task "${ids[v]}" is listed ${where.length} times in subgraph "${names[0]}"; each task must be listed once`
          : `Task "${ids[v]}" is in ${names.length} subgraphs (${quoteList(names)}); each task must be in exactly one`,
      task_ids: [ids[v]!],
    });
  }
  const uncovered: string[] = [];
  for (let v = 0; v < n; v++) if (owner[v] === -1) uncovered.push(ids[v]!);
  if (uncovered.length > 0) {
    issues.push({
      severity: 'error',
      code: 'subgraph_coverage',
      message: `${uncovered.length === 1 ? 'Task' : `${uncovered.length} tasks`} ${quoteList(uncovered)} ${uncovered.length === 1 ? 'is' : 'are'} in no subgraph; each task must be in exactly one`,
      task_ids: uncovered,
    });
  }
  if (listings.size > 0 || duplicateIds > 0) return issues;

  // depends_on: exactly the subgraphs holding a direct prerequisite of one of the tasks.
  // implied[s][k] is a subgraph position, witness[s][k] = [prerequisite, dependent] showing why.
  const implied: number[][] = [];
  const witness: Array<Array<[number, number]>> = [];
  const stamp = new Int32Array(count).fill(-1);
  for (let s = 0; s < count; s++) {
    const subs: number[] = [];
    const why: Array<[number, number]> = [];
    stamp[s] = s; // never depends on itself
    for (const v of members[s]!) {
      const stop = predOffsets[v + 1]!;
      for (let e = predOffsets[v]!; e < stop; e++) {
        const u = pred[e]!;
        const o = owner[u]!;
        if (o === -1 || stamp[o] === s) continue;
        stamp[o] = s;
        subs.push(o);
        why.push([u, v]);
      }
    }
    implied.push(subs);
    witness.push(why);
  }

  for (let s = 0; s < count; s++) {
    const sg = subgraphs[s]!;
    const declared = new Set(sg.depends_on);
    const impliedIds = new Set(implied[s]!.map((o) => subgraphs[o]!.subgraph_id));
    const missing: string[] = [];
    const missingTasks: string[] = [];
    implied[s]!.forEach((o, k) => {
      const id = subgraphs[o]!.subgraph_id;
      if (declared.has(id)) return;
      const [u, v] = witness[s]![k]!;
      missing.push(`"${id}" (task "${ids[v]}" depends on "${ids[u]}")`);
      missingTasks.push(ids[v]!, ids[u]!);
    });
    const extra: string[] = [];
    for (const id of declared) {
      if (impliedIds.has(id)) continue;
      const why =
        id === sg.subgraph_id ? 'itself' : positionOf.has(id) ? 'none of its tasks depends on a task there' : 'no such subgraph';
      extra.push(`"${id}" (${why})`);
    }
    if (missing.length === 0 && extra.length === 0) continue;
    const parts: string[] = [];
    if (missing.length > 0) parts.push(`missing ${plainList(missing)}`);
    if (extra.length > 0) parts.push(`not implied ${plainList(extra)}`);
    issues.push({
      severity: 'error',
      code: 'subgraph_depends_on',
      message: `Subgraph "${sg.subgraph_id}": depends_on must list exactly the subgraphs its tasks depend on; ${parts.join('; ')}`,
      task_ids: missingTasks.length > 0 ? [...new Set(missingTasks)] : memberIds(s),
    });
  }

  // Cycles among subgraphs, over what the dispatcher would wait for: the implied
  // dependencies and the declared ones that name another subgraph.
  const sgGraph = buildGraphIndex(
    subgraphs.map((sg, s) => {
      const deps = new Set(implied[s]!.map((o) => subgraphs[o]!.subgraph_id));
      for (const id of sg.depends_on) if (id !== sg.subgraph_id && positionOf.has(id)) deps.add(id);
      return { task_id: sg.subgraph_id, dependencies: [...deps] };
    }),
  );
  const cycle = findCycle(sgGraph);
  if (cycle) {
    // cycle[k] is a prerequisite of cycle[k + 1]: say why for each step.
    const reasons: string[] = [];
    const involved: string[] = [];
    cycle.forEach((from, k) => {
      const to = cycle[(k + 1) % cycle.length]!;
      const a = positionOf.get(from)!;
      const b = positionOf.get(to)!;
      const at = implied[b]!.indexOf(a);
      if (at === -1) {
        reasons.push(`"${to}" lists "${from}" in depends_on`);
        return;
      }
      const [u, v] = witness[b]![at]!;
      reasons.push(`task "${ids[v]}" in "${to}" depends on "${ids[u]}" in "${from}"`);
      involved.push(ids[v]!, ids[u]!);
    });
    issues.push({
      severity: 'error',
      code: 'subgraph_cycle',
      message: `Subgraphs wait on each other: ${[...cycle, cycle[0]].join(' → ')} (${reasons.join('; ')}); no subgraph in the cycle can start`,
      task_ids: involved.length > 0 ? [...new Set(involved)] : cycle.flatMap((id) => memberIds(positionOf.get(id)!)),
    });
  }
  return issues;
}
