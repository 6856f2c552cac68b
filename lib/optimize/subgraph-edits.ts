import { buildGraphIndex, topologicalOrder, topologicalPositions, type GraphIndex } from '@/lib/graph';
import { PlanCommandError, type PlanDocument, type PlannerTask, type SubGraph } from '@/lib/plan';
import { subgraphIssues } from '@/lib/validate/subgraph-checks';

// Pure edits to a plan's grouping, as the operator makes them on the canvas (move a task
// to another group, split a group, merge groups) and as other edits need them (a new task
// gets a group of its own). Each returns a new document whose grouping satisfies every
// invariant lib/validate checks, or throws a PlanCommandError naming the broken one.
// depends_on is never edited by hand: it is derived from the tasks' dependencies.

export type Grouping = ReadonlyArray<Pick<SubGraph, 'subgraph_id' | 'task_ids'>>;

/**
 * The grouping with each subgraph's tasks in dependency order (a subgraph runs its
 * tasks in listed order), empty subgraphs dropped and depends_on derived from the
 * tasks' dependencies, listed in subgraph order. Unknown task ids are kept, for
 * validation to report. On a cyclic plan the task order is left as given.
 * O(T + E + S).
 */
export function normaliseSubgraphs(tasks: readonly Pick<PlannerTask, 'task_id' | 'dependencies'>[], groups: Grouping, index: GraphIndex = buildGraphIndex(tasks)): SubGraph[] {
  const order = topologicalOrder(index);
  const rank = order ? topologicalPositions(order) : null;
  const kept = groups.filter((g) => g.task_ids.length > 0);
  const owner = new Map<string, number>();
  kept.forEach((g, s) => g.task_ids.forEach((id) => owner.set(id, s)));
  return kept.map((g, s) => {
    const taskIds = rank
      ? [...g.task_ids].sort((a, b) => (rank[index.idToIndex.get(a) ?? -1] ?? -1) - (rank[index.idToIndex.get(b) ?? -1] ?? -1))
      : [...g.task_ids];
    const deps = new Set<number>();
    for (const id of g.task_ids) {
      const v = index.idToIndex.get(id);
      if (v === undefined) continue;
      for (let e = index.predOffsets[v]!; e < index.predOffsets[v + 1]!; e++) {
        const o = owner.get(index.ids[index.pred[e]!]!);
        if (o !== undefined && o !== s) deps.add(o);
      }
    }
    return { subgraph_id: g.subgraph_id, task_ids: taskIds, depends_on: [...deps].sort((a, b) => a - b).map((o) => kept[o]!.subgraph_id) };
  });
}

/** The first error in a grouping, or null. */
export function groupingError(tasks: readonly PlannerTask[], subgraphs: readonly SubGraph[]): string | null {
  const issue = subgraphIssues(tasks, buildGraphIndex(tasks), subgraphs).find((i) => i.severity === 'error');
  return issue ? issue.message : null;
}

/** Sets the grouping (normalised), refusing one that breaks an invariant. */
export function setSubgraphs(doc: PlanDocument, groups: Grouping, command = 'setSubgraphs'): PlanDocument {
  const tasks = doc.plan.planned_tasks;
  const subgraphs = normaliseSubgraphs(tasks, groups);
  const error = groupingError(tasks, subgraphs);
  if (error) throw new PlanCommandError(command, error);
  return { ...doc, subgraphs };
}

/**
 * Keeps a grouped plan's grouping in step after a task or dependency edit: tasks in no
 * subgraph get one each, ids of removed tasks are dropped and depends_on is derived
 * again. Does not refuse: a cycle among subgraphs that an edit made is for the caller
 * to refuse (see groupingError) or for validation to report. Ungrouped plans are returned as they are.
 */
export function resyncSubgraphs(doc: PlanDocument): PlanDocument {
  if (doc.subgraphs.length === 0) return doc;
  const tasks = doc.plan.planned_tasks;
  const known = new Set(tasks.map((t) => t.task_id));
  const grouped = new Set<string>();
  const groups = doc.subgraphs.map((sg) => {
    const ids = sg.task_ids.filter((id) => known.has(id) && !grouped.has(id));
    ids.forEach((id) => grouped.add(id));
    return { subgraph_id: sg.subgraph_id, task_ids: ids };
  });
  const taken = new Set(groups.map((g) => g.subgraph_id));
  for (const task of tasks) {
    if (grouped.has(task.task_id)) continue;
    groups.push({ subgraph_id: freshSubgraphId(taken), task_ids: [task.task_id] });
  }
  const subgraphs = normaliseSubgraphs(tasks, groups);
  return JSON.stringify(subgraphs) === JSON.stringify(doc.subgraphs) ? doc : { ...doc, subgraphs };
}

/** A free id of the form sg-N (N from the number of ids taken, upwards), added to `taken`. */
export function freshSubgraphId(taken: Set<string>): string {
  let n = taken.size + 1;
  while (taken.has(`sg-${n}`)) n++;
  const id = `sg-${n}`;
  taken.add(id);
  return id;
}

/** Ids of the subgraphs holding any of `taskIds`, in the grouping's order. */
export function subgraphsHolding(subgraphs: readonly Pick<SubGraph, 'subgraph_id' | 'task_ids'>[], taskIds: Iterable<string>): string[] {
  const wanted = new Set(taskIds);
  if (wanted.size === 0) return [];
  return subgraphs.filter((sg) => sg.task_ids.some((id) => wanted.has(id))).map((sg) => sg.subgraph_id);
}

function ownerOf(doc: PlanDocument, command: string, taskId: string): SubGraph {
  const sg = doc.subgraphs.find((s) => s.task_ids.includes(taskId));
  if (!sg) throw new PlanCommandError(command, `task "${taskId}" is in no subgraph`);
  return sg;
}

/** Moves tasks into another subgraph; refused when that would make subgraphs wait on each other. */
export function moveTasksToSubgraph(doc: PlanDocument, taskIds: readonly string[], targetId: string): PlanDocument {
  const command = 'moveTasksToSubgraph';
  if (!doc.subgraphs.some((sg) => sg.subgraph_id === targetId)) throw new PlanCommandError(command, `subgraph "${targetId}" does not exist`);
  const moving = new Set(taskIds);
  for (const id of moving) ownerOf(doc, command, id);
  const groups = doc.subgraphs.map((sg) => ({
    subgraph_id: sg.subgraph_id,
    task_ids: sg.subgraph_id === targetId ? [...sg.task_ids.filter((id) => !moving.has(id)), ...moving] : sg.task_ids.filter((id) => !moving.has(id)),
  }));
  return setSubgraphs(doc, groups, command);
}

/** Moves tasks out of their subgraph into a new one, placed after it; returns the new id too. */
export function splitSubgraph(doc: PlanDocument, taskIds: readonly string[]): { doc: PlanDocument; subgraphId: string } {
  const command = 'splitSubgraph';
  if (taskIds.length === 0) throw new PlanCommandError(command, 'select the tasks to split off');
  const source = ownerOf(doc, command, taskIds[0]!);
  const moving = new Set(taskIds);
  for (const id of moving) {
    if (ownerOf(doc, command, id) !== source) throw new PlanCommandError(command, `the selected tasks are in more than one subgraph; split one subgraph at a time`);
  }
  if (source.task_ids.every((id) => moving.has(id))) {
    throw new PlanCommandError(command, `those are all the tasks of subgraph "${source.subgraph_id}"; select only the ones to split off`);
  }
  const subgraphId = freshSubgraphId(new Set(doc.subgraphs.map((sg) => sg.subgraph_id)));
  const groups = doc.subgraphs.flatMap((sg) =>
    sg === source
      ? [
          { subgraph_id: sg.subgraph_id, task_ids: sg.task_ids.filter((id) => !moving.has(id)) },
          { subgraph_id: subgraphId, task_ids: sg.task_ids.filter((id) => moving.has(id)) },
        ]
      : [sg],
  );
  return { doc: setSubgraphs(doc, groups, command), subgraphId };
}

/** Merges subgraphs into the first one named; refused when that would make subgraphs wait on each other. */
export function mergeSubgraphs(doc: PlanDocument, subgraphIds: readonly string[]): PlanDocument {
  const command = 'mergeSubgraphs';
  const ids = [...new Set(subgraphIds)];
  if (ids.length < 2) throw new PlanCommandError(command, 'select tasks in at least two subgraphs to merge');
  for (const id of ids) {
    if (!doc.subgraphs.some((sg) => sg.subgraph_id === id)) throw new PlanCommandError(command, `subgraph "${id}" does not exist`);
  }
  const [into, ...rest] = ids as [string, ...string[]];
  const absorbed = new Set(rest);
  const moved = doc.subgraphs.filter((sg) => absorbed.has(sg.subgraph_id)).flatMap((sg) => sg.task_ids);
  const groups = doc.subgraphs
    .filter((sg) => !absorbed.has(sg.subgraph_id))
    .map((sg) => (sg.subgraph_id === into ? { subgraph_id: into, task_ids: [...sg.task_ids, ...moved] } : sg));
  return setSubgraphs(doc, groups, command);
}
