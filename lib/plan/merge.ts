import { buildGraphIndex, findCycle } from '@/lib/graph';
import type { Job, PlanDocument, PlannerTask, SubGraph, TaskData } from './schema';

// Three-way merge of plan documents: `base` is the revision both sides started from,
// `mine` the unsaved draft, `theirs` the revision someone else saved meanwhile. Tasks are
// matched by task_id and merged field by field; a field only one side changed takes that
// side's value, a field both changed alike is kept, and a field both changed differently
// is a conflict. Dependencies and subgraph members are sets: additions from both sides
// are kept, unless together they close a dependency cycle (neither side alone can), which
// is a conflict over the dependencies of the tasks on it. Subgraphs merge group by group.
// View data never conflicts (mine wins). O(n + E) per cycle found, plus a deep compare of
// the fields both sides touched.

export type MergeSide = 'mine' | 'theirs';

export interface FieldConflict {
  /** A task field, a job or plan field, or 'task' / 'subgraphs' for the whole thing. */
  field: string;
  base: unknown;
  /** null where that side deleted the task. */
  mine: unknown;
  theirs: unknown;
}

export interface MergeConflict {
  /**
   * What a choice in `choices` names: `task:<id>`, 'plan', 'job', `subgraph:<id>` (a group
   * one side deleted and the other changed), `grouping:<task id>` (a task both sides put in
   * different groups) or `cycle:<ids>` (dependencies that together form a cycle).
   */
  key: string;
  taskId: string | null;
  fields: FieldConflict[];
  /** For a cycle: the task ids on it, each a prerequisite of the next and the last of the first. */
  cycle?: string[];
}

export interface MergeResult {
  /** The merged document; unresolved conflicts take mine until chosen otherwise. */
  doc: PlanDocument;
  /** Conflicts no choice resolved: the merge is complete only when this is empty. */
  conflicts: MergeConflict[];
}

export const taskConflictKey = (taskId: string) => `task:${taskId}`;
export const subgraphConflictKey = (subgraphId: string) => `subgraph:${subgraphId}`;
export const groupingConflictKey = (taskId: string) => `grouping:${taskId}`;
/** Named by its tasks, sorted, so the key does not depend on where the cycle was entered. */
export const cycleConflictKey = (taskIds: readonly string[]) => `cycle:${[...taskIds].sort().join(',')}`;

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, i) => jsonEqual(value, other[i]));
  }
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  const bo = b as Record<string, unknown>;
  return ak.every((key) => Object.prototype.hasOwnProperty.call(bo, key) && jsonEqual((a as Record<string, unknown>)[key], bo[key]));
}

/**
 * A set's three-way merge, the same whichever side is which: what base had and both kept,
 * in base's order, then what either side added, sorted.
 */
function mergeSet(base: readonly string[], mine: readonly string[], theirs: readonly string[]): string[] {
  const m = new Set(mine);
  const t = new Set(theirs);
  const b = new Set(base);
  const kept = base.filter((x) => m.has(x) && t.has(x));
  const added = [...new Set([...mine, ...theirs])].filter((x) => !b.has(x)).sort();
  return [...kept, ...added];
}

/** Fields whose both-sides change is a set union, not a conflict. */
const SET_FIELDS = new Set(['dependencies', 'task_ids', 'depends_on']);
/** Bookkeeping timestamps: the later one wins. */
const LATEST_FIELDS = new Set(['last_update_time', 'update_time']);

type Resolved<T> = { value: T; conflicts: FieldConflict[] };

/** Merges two versions of one record field by field; base is undefined when both sides added it. */
function mergeRecord<T extends object>(base: T | undefined, mine: T, theirs: T, choice: MergeSide | undefined): Resolved<T> {
  if (mine === base || (base !== undefined && jsonEqual(mine, base))) return { value: theirs, conflicts: [] };
  if (theirs === base || (base !== undefined && jsonEqual(theirs, base)) || jsonEqual(mine, theirs)) return { value: mine, conflicts: [] };
  const out: Record<string, unknown> = {};
  const conflicts: FieldConflict[] = [];
  const m = mine as Record<string, unknown>;
  const t = theirs as Record<string, unknown>;
  const b = base as Record<string, unknown> | undefined;
  for (const key of new Set([...Object.keys(m), ...Object.keys(t)])) {
    const mv = m[key];
    const tv = t[key];
    const bv = b?.[key];
    if (jsonEqual(mv, tv)) out[key] = mv;
    else if (b && jsonEqual(mv, bv)) out[key] = tv;
    else if (b && jsonEqual(tv, bv)) out[key] = mv;
    else if (SET_FIELDS.has(key) && Array.isArray(mv) && Array.isArray(tv)) out[key] = mergeSet(Array.isArray(bv) ? bv : [], mv, tv);
    else if (LATEST_FIELDS.has(key) && typeof mv === 'string' && typeof tv === 'string') out[key] = mv > tv ? mv : tv;
    else {
      if (!choice) conflicts.push({ field: key, base: bv ?? null, mine: mv, theirs: tv });
      out[key] = choice === 'theirs' ? tv : mv;
    }
  }
  return { value: out as T, conflicts };
}

/** The merged order of ids: one side's order if the other kept base's, else base's order then the additions, sorted. */
function mergeOrder(base: readonly string[], mine: readonly string[], theirs: readonly string[], present: Set<string>): string[] {
  const order = jsonEqual(mine, base) ? theirs : jsonEqual(theirs, base) || jsonEqual(mine, theirs) ? mine : null;
  const ids = order ?? [...base, ...[...new Set([...mine, ...theirs])].filter((id) => !base.includes(id)).sort()];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of [...ids, ...mine, ...theirs]) {
    if (present.has(id) && !seen.has(id)) {
      seen.add(id);
      out.push(id);
    }
  }
  return out;
}

function byId<T>(items: readonly T[], id: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [id(item), item]));
}

function mergeTasks(base: PlanDocument, mine: PlanDocument, theirs: PlanDocument, choices: Record<string, MergeSide>) {
  const b = byId(base.plan.planned_tasks, (t) => t.task_id);
  const m = byId(mine.plan.planned_tasks, (t) => t.task_id);
  const t = byId(theirs.plan.planned_tasks, (t) => t.task_id);
  // A task one side deleted that the other side now depends on is a conflict, not a silent drop.
  const addedDeps = (doc: Map<string, PlannerTask>) => {
    const used = new Set<string>();
    for (const [id, task] of doc) {
      const before = new Set(b.get(id)?.dependencies ?? []);
      for (const dep of task.dependencies) if (!before.has(dep)) used.add(dep);
    }
    return used;
  };
  const mineUses = addedDeps(m);
  const theirsUse = addedDeps(t);

  const merged = new Map<string, PlannerTask>();
  const conflicts: MergeConflict[] = [];
  for (const id of new Set([...b.keys(), ...m.keys(), ...t.keys()])) {
    const bt = b.get(id);
    const mt = m.get(id);
    const tt = t.get(id);
    const key = taskConflictKey(id);
    const choice = choices[key];
    if (mt && tt) {
      const { value, conflicts: fields } = mergeRecord(bt, mt, tt, choice);
      merged.set(id, value);
      if (fields.length) conflicts.push({ key, taskId: id, fields });
    } else if (mt || tt) {
      const kept = (mt ?? tt)!;
      if (!bt) {
        merged.set(id, kept); // added on one side only
        continue;
      }
      // Deleted on one side: fine while the other side left it alone and does not now depend on it.
      // (Losing dependencies on tasks the keeping side itself deleted is not an edit of it.)
      const deleterIsMine = !mt;
      const keeper = deleterIsMine ? t : m;
      const baseThere = { ...bt, dependencies: bt.dependencies.filter((d) => keeper.has(d)) };
      const untouched = jsonEqual(kept, baseThere) && !(deleterIsMine ? theirsUse : mineUses).has(id);
      if (untouched) continue;
      if (!choice) conflicts.push({ key, taskId: id, fields: [{ field: 'task', base: bt, mine: mt ?? null, theirs: tt ?? null }] });
      const keep = (choice ?? 'mine') === 'mine' ? mt : tt;
      if (keep) merged.set(id, keep);
    }
  }
  const order = mergeOrder(
    base.plan.planned_tasks.map((x) => x.task_id),
    mine.plan.planned_tasks.map((x) => x.task_id),
    theirs.plan.planned_tasks.map((x) => x.task_id),
    new Set(merged.keys()),
  );
  // No dependency may name a task that is gone (one the other side deleted).
  const tasks = order.map((id) => {
    const task = merged.get(id)!;
    return task.dependencies.every((d) => merged.has(d)) ? task : { ...task, dependencies: task.dependencies.filter((d) => merged.has(d)) };
  });
  return { tasks, conflicts };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

/**
 * Both sides' dependencies, unioned, can close a cycle neither side has (mine adds b → a,
 * theirs a → b). Each cycle is a conflict over the dependencies of its tasks the sides
 * disagree on; the chosen side's dependencies for those tasks break it, as that side has
 * no cycle. Repeats while cycles remain, so the result is acyclic once all are chosen.
 */
function resolveCycles(tasks: PlannerTask[], mine: PlanDocument, theirs: PlanDocument, choices: Record<string, MergeSide>) {
  const m = byId(mine.plan.planned_tasks, (t) => t.task_id);
  const t = byId(theirs.plan.planned_tasks, (t) => t.task_id);
  const conflicts: MergeConflict[] = [];
  let current = tasks;
  // Each chosen cycle removes at least one edge, so this ends; the bound is a safeguard.
  for (let round = 0; round <= tasks.length; round++) {
    const cycle = findCycle(buildGraphIndex(current));
    if (!cycle) break;
    const disputed = cycle.filter((id) => !sameSet(m.get(id)?.dependencies ?? [], t.get(id)?.dependencies ?? []));
    const involved = disputed.length ? disputed : cycle;
    const key = cycleConflictKey(cycle);
    const choice = choices[key];
    if (!choice) {
      conflicts.push({
        key,
        taskId: null,
        cycle,
        fields: involved.map((id) => ({ field: `${id} dependencies`, base: null, mine: m.get(id)?.dependencies ?? null, theirs: t.get(id)?.dependencies ?? null })),
      });
      break;
    }
    const side = choice === 'mine' ? m : t;
    const present = new Set(current.map((x) => x.task_id));
    const settle = new Set(involved);
    current = current.map((task) => {
      const chosen = settle.has(task.task_id) ? side.get(task.task_id) : undefined;
      return chosen ? { ...task, dependencies: chosen.dependencies.filter((d) => present.has(d)) } : task;
    });
  }
  return { tasks: current, conflicts };
}

/**
 * Each side's groups, with any group both sides added under one id (fresh ids are
 * `sg-N`, so two editors easily pick the same) but different content renamed on my side,
 * where nothing else yet refers to it.
 */
function renameClashingGroups(base: SubGraph[], mine: PlanDocument, theirs: SubGraph[]): { subgraphs: SubGraph[]; collapsed: string[] } {
  const b = new Set(base.map((s) => s.subgraph_id));
  const t = byId(theirs, (s) => s.subgraph_id);
  const taken = new Set([...b, ...t.keys(), ...mine.subgraphs.map((s) => s.subgraph_id)]);
  const renamed = new Map<string, string>();
  for (const group of mine.subgraphs) {
    const other = t.get(group.subgraph_id);
    if (b.has(group.subgraph_id) || !other || jsonEqual(other, group)) continue;
    let n = 2;
    while (taken.has(`${group.subgraph_id}-${n}`)) n++;
    const fresh = `${group.subgraph_id}-${n}`;
    taken.add(fresh);
    renamed.set(group.subgraph_id, fresh);
  }
  if (!renamed.size) return { subgraphs: mine.subgraphs, collapsed: mine.view.collapsed };
  const to = (id: string) => renamed.get(id) ?? id;
  return {
    subgraphs: mine.subgraphs.map((s) => ({ ...s, subgraph_id: to(s.subgraph_id), depends_on: s.depends_on.map(to) })),
    collapsed: mine.view.collapsed.map(to),
  };
}

/**
 * Group by group: a group only one side changed takes that change; one both changed merges
 * its members as sets; one deleted on a side while changed on the other is a conflict
 * (`subgraph:<id>`), as is a task both sides moved into different groups (`grouping:<id>`).
 */
function mergeSubgraphs(base: SubGraph[], mine: SubGraph[], theirs: SubGraph[], tasks: Set<string>, choices: Record<string, MergeSide>) {
  const conflicts: MergeConflict[] = [];
  let groups: SubGraph[];
  if (jsonEqual(mine, base)) groups = theirs;
  else if (jsonEqual(theirs, base) || jsonEqual(mine, theirs)) groups = mine;
  else {
    const b = byId(base, (s) => s.subgraph_id);
    const m = byId(mine, (s) => s.subgraph_id);
    const t = byId(theirs, (s) => s.subgraph_id);
    const merged = new Map<string, SubGraph>();
    for (const id of new Set([...b.keys(), ...m.keys(), ...t.keys()])) {
      const bs = b.get(id);
      const ms = m.get(id);
      const ts = t.get(id);
      // Both added one id alike, or both kept it: its members are sets, merged without conflict.
      if (ms && ts) merged.set(id, bs ? mergeRecord(bs, ms, ts, 'mine').value : ms);
      else if (ms || ts) {
        const kept = (ms ?? ts)!;
        if (!bs || jsonEqual(kept, bs)) {
          if (!bs) merged.set(id, kept); // added on one side; else deleted on one, untouched on the other
          continue;
        }
        const key = subgraphConflictKey(id);
        const choice = choices[key];
        if (!choice) conflicts.push({ key, taskId: null, fields: [{ field: `subgraph ${id}`, base: bs, mine: ms ?? null, theirs: ts ?? null }] });
        const keep = (choice ?? 'mine') === 'mine' ? ms : ts;
        if (keep) merged.set(id, keep);
      }
    }
    const order = mergeOrder(
      base.map((s) => s.subgraph_id),
      mine.map((s) => s.subgraph_id),
      theirs.map((s) => s.subgraph_id),
      new Set(merged.keys()),
    );
    groups = order.map((id) => merged.get(id)!);
    // A task may sit in one subgraph only: both sides moving it to different ones is a conflict.
    const groupOf = (list: SubGraph[], task: string) => list.find((g) => g.task_ids.includes(task))?.subgraph_id ?? null;
    const owners = new Map<string, string[]>();
    for (const group of groups) for (const id of group.task_ids) owners.set(id, [...(owners.get(id) ?? []), group.subgraph_id]);
    for (const [task, held] of owners) {
      if (held.length < 2) continue;
      const key = groupingConflictKey(task);
      const choice = choices[key];
      const mineGroup = groupOf(mine, task);
      const theirGroup = groupOf(theirs, task);
      if (!choice) conflicts.push({ key, taskId: null, fields: [{ field: `group of ${task}`, base: groupOf(base, task), mine: mineGroup, theirs: theirGroup }] });
      const home = (choice ?? 'mine') === 'mine' ? mineGroup : theirGroup;
      groups = groups.map((g) => (g.subgraph_id !== home && g.task_ids.includes(task) ? { ...g, task_ids: g.task_ids.filter((x) => x !== task) } : g));
    }
  }
  const live = new Set(groups.map((s) => s.subgraph_id));
  const cleaned = groups.map((s) =>
    s.task_ids.every((id) => tasks.has(id)) && s.depends_on.every((id) => live.has(id))
      ? s
      : { ...s, task_ids: s.task_ids.filter((id) => tasks.has(id)), depends_on: s.depends_on.filter((id) => live.has(id)) },
  );
  return { subgraphs: cleaned, conflicts };
}

/**
 * Merges `mine` and `theirs`, both edited from `base`. `choices` settles conflicts by key
 * (see MergeConflict.key): the chosen side's version of what conflicted.
 */
export function mergePlans(base: PlanDocument, mine: PlanDocument, theirs: PlanDocument, choices: Record<string, MergeSide> = {}): MergeResult {
  if (mine === base || jsonEqual(mine, base)) return { doc: theirs, conflicts: [] };
  if (theirs === base || jsonEqual(theirs, base)) return { doc: mine, conflicts: [] };
  const conflicts: MergeConflict[] = [];

  const { planned_tasks: _b, ...planBase } = base.plan;
  const { planned_tasks: _m, ...planMine } = mine.plan;
  const { planned_tasks: _t, ...planTheirs } = theirs.plan;
  const planFields = mergeRecord(planBase, planMine, planTheirs, choices.plan);
  if (planFields.conflicts.length) conflicts.push({ key: 'plan', taskId: null, fields: planFields.conflicts });

  const job = mergeRecord<Job>(base.job, mine.job, theirs.job, choices.job);
  if (job.conflicts.length) conflicts.push({ key: 'job', taskId: null, fields: job.conflicts });

  const merged = mergeTasks(base, mine, theirs, choices);
  conflicts.push(...merged.conflicts);
  const tasks = resolveCycles(merged.tasks, mine, theirs, choices);
  conflicts.push(...tasks.conflicts);
  const ids = new Set(tasks.tasks.map((t) => t.task_id));

  const mineGroups = renameClashingGroups(base.subgraphs, mine, theirs.subgraphs);
  const subgraphs = mergeSubgraphs(base.subgraphs, mineGroups.subgraphs, theirs.subgraphs, ids, choices);
  conflicts.push(...subgraphs.conflicts);

  // View data is how the plan is drawn, never a conflict: my moves win, theirs fill in.
  const positions: PlanDocument['view']['positions'] = {};
  for (const id of ids) {
    const mp = mine.view.positions[id];
    const tp = theirs.view.positions[id];
    const bp = base.view.positions[id];
    const p = mp && !jsonEqual(mp, bp) ? mp : (tp ?? mp);
    if (p) positions[id] = p;
  }
  const collapsed = jsonEqual(mine.view.collapsed, base.view.collapsed) ? theirs.view.collapsed : mineGroups.collapsed;

  const plan: TaskData = { ...(planFields.value as Omit<TaskData, 'planned_tasks'>), planned_tasks: tasks.tasks };
  return { doc: { plan, job: job.value, subgraphs: subgraphs.subgraphs, view: { positions, collapsed } }, conflicts };
}
