import canonicalize from 'canonicalize';
import type { PlanDocument, PlannerTask, SubGraph } from './schema';

// What changed between two revisions, in the terms a reviewer reads: tasks added,
// removed, replaced and changed (by field), dependencies added and removed, and
// subgraphs by group and member.

export interface TaskChange {
  task_id: string;
  fields: Array<{ field: keyof PlannerTask; before: unknown; after: unknown }>;
}

/**
 * A removed task and the new tasks that name it in `main_task_id` (what lib/replan
 * writes when it replaces a task), each with its fields against the task it replaces.
 */
export interface TaskReplacement {
  replaces: PlannerTask;
  tasks: Array<{ task: PlannerTask; fields: TaskChange['fields'] }>;
}

export interface SubgraphChange {
  subgraph_id: string;
  tasksAdded: string[];
  tasksRemoved: string[];
  dependsOnAdded: string[];
  dependsOnRemoved: string[];
}

export interface SubgraphDiff {
  added: SubGraph[];
  removed: SubGraph[];
  /** Groups in both revisions whose members or `depends_on` differ. */
  changed: SubgraphChange[];
  /** Tasks in a group in both revisions, in a different group now. */
  moved: Array<{ task_id: string; from: string; to: string }>;
}

export interface PlanDiff {
  /** Every task new in `after`, replacements included. */
  added: PlannerTask[];
  /** Every task gone from `after`, replaced ones included. */
  removed: PlannerTask[];
  /** The subset of added and removed tasks that are replacements, by the task replaced. */
  replacements: TaskReplacement[];
  changed: TaskChange[];
  dependenciesAdded: Array<{ from: string; to: string }>;
  dependenciesRemoved: Array<{ from: string; to: string }>;
  jobChanged: boolean;
  subgraphsChanged: boolean;
  subgraphs: SubgraphDiff;
  /** TaskData fields other than the tasks (task_id, inputs, status…) that differ. */
  planFieldsChanged: string[];
}

const same = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);

function edges(tasks: readonly PlannerTask[]): Set<string> {
  return new Set(tasks.flatMap((t) => t.dependencies.map((d) => `${d}\u0000${t.task_id}`)));
}

function asEdge(key: string) {
  const [from, to] = key.split('\u0000');
  return { from, to };
}

/** The fields of `after` whose value differs from `before`'s (canonical JSON), in `after`'s field order. */
export function changedFields(before: PlannerTask, after: PlannerTask): TaskChange['fields'] {
  return (Object.keys(after) as Array<keyof PlannerTask>)
    .filter((field) => !same(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

// Fields that always differ between a task and its replacement, so they say nothing.
const NOT_COMPARED_IN_REPLACEMENT = new Set<string>(['task_id', 'main_task_id', 'creation_time', 'last_update_time']);

function replacementsOf(added: readonly PlannerTask[], removed: readonly PlannerTask[]): TaskReplacement[] {
  const gone = new Map(removed.map((t) => [t.task_id, t]));
  const byReplaced = new Map<string, TaskReplacement>();
  for (const task of added) {
    const replaces = task.main_task_id ? gone.get(task.main_task_id) : undefined;
    if (!replaces) continue;
    let entry = byReplaced.get(replaces.task_id);
    if (!entry) byReplaced.set(replaces.task_id, (entry = { replaces, tasks: [] }));
    entry.tasks.push({ task, fields: changedFields(replaces, task).filter((f) => !NOT_COMPARED_IN_REPLACEMENT.has(f.field)) });
  }
  return [...byReplaced.values()];
}

const difference = (a: readonly string[], b: readonly string[]) => {
  const other = new Set(b);
  return a.filter((x) => !other.has(x));
};

function groupOf(subgraphs: readonly SubGraph[]): Map<string, string> {
  const group = new Map<string, string>();
  for (const s of subgraphs) for (const id of s.task_ids) if (!group.has(id)) group.set(id, s.subgraph_id);
  return group;
}

/** Subgraph changes by group (added, removed, members and `depends_on`) and by task (moved between groups). */
export function diffSubgraphs(before: readonly SubGraph[], after: readonly SubGraph[]): SubgraphDiff {
  const old = new Map(before.map((s) => [s.subgraph_id, s]));
  const next = new Map(after.map((s) => [s.subgraph_id, s]));
  const changed: SubgraphChange[] = [];
  for (const [id, group] of next) {
    const prior = old.get(id);
    if (!prior) continue;
    const change = {
      subgraph_id: id,
      tasksAdded: difference(group.task_ids, prior.task_ids),
      tasksRemoved: difference(prior.task_ids, group.task_ids),
      dependsOnAdded: difference(group.depends_on, prior.depends_on),
      dependsOnRemoved: difference(prior.depends_on, group.depends_on),
    };
    if (change.tasksAdded.length || change.tasksRemoved.length || change.dependsOnAdded.length || change.dependsOnRemoved.length) changed.push(change);
  }
  const wasIn = groupOf(before);
  const moved: SubgraphDiff['moved'] = [];
  for (const [task_id, to] of groupOf(after)) {
    const from = wasIn.get(task_id);
    if (from !== undefined && from !== to) moved.push({ task_id, from, to });
  }
  return {
    added: after.filter((s) => !old.has(s.subgraph_id)),
    removed: before.filter((s) => !next.has(s.subgraph_id)),
    changed,
    moved,
  };
}

export interface ValueChange {
  /** Where below the field, e.g. `stage2.input_data.days`; '' for the whole value. */
  path: string;
  /** undefined when the key is absent on that side. */
  before: unknown;
  after: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where two JSON values differ, key by key through objects (arrays and scalars are
 * compared whole), so a change deep in `parameters` names its path. At most `limit` entries.
 */
export function valueChanges(before: unknown, after: unknown, limit = 200): ValueChange[] {
  const out: ValueChange[] = [];
  const stack: Array<[string, unknown, unknown]> = [['', before, after]];
  while (stack.length && out.length < limit) {
    const [path, a, b] = stack.pop()!;
    if (isPlainObject(a) && isPlainObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
      // Pushed in reverse so they come off the stack in key order.
      for (const key of keys.reverse()) {
        const at = path ? `${path}.${key}` : key;
        if (!(key in a)) stack.push([at, undefined, b[key]]);
        else if (!(key in b)) stack.push([at, a[key], undefined]);
        else if (!same(a[key], b[key])) stack.push([at, a[key], b[key]]);
      }
    } else {
      out.push({ path, before: a, after: b });
    }
  }
  return out;
}

export function diffPlans(before: Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>, after: Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>): PlanDiff {
  const old = new Map(before.plan.planned_tasks.map((t) => [t.task_id, t]));
  const next = new Map(after.plan.planned_tasks.map((t) => [t.task_id, t]));
  const changed: TaskChange[] = [];
  for (const [id, task] of next) {
    const prior = old.get(id);
    if (!prior) continue;
    const fields = changedFields(prior, task).filter((f) => f.field !== 'dependencies');
    if (fields.length) changed.push({ task_id: id, fields });
  }
  const beforeEdges = edges(before.plan.planned_tasks);
  const afterEdges = edges(after.plan.planned_tasks);
  const added = [...next.values()].filter((t) => !old.has(t.task_id));
  const removed = [...old.values()].filter((t) => !next.has(t.task_id));
  return {
    added,
    removed,
    replacements: replacementsOf(added, removed),
    changed,
    dependenciesAdded: [...afterEdges].filter((e) => !beforeEdges.has(e)).map(asEdge),
    dependenciesRemoved: [...beforeEdges].filter((e) => !afterEdges.has(e)).map(asEdge),
    jobChanged: !same(before.job, after.job),
    subgraphsChanged: !same(before.subgraphs, after.subgraphs),
    subgraphs: diffSubgraphs(before.subgraphs, after.subgraphs),
    planFieldsChanged: (Object.keys(after.plan) as Array<keyof typeof after.plan>).filter(
      (field) => field !== 'planned_tasks' && !same(before.plan[field], after.plan[field]),
    ),
  };
}

export function isEmptyDiff(diff: PlanDiff): boolean {
  return (
    !diff.added.length &&
    !diff.removed.length &&
    !diff.changed.length &&
    !diff.dependenciesAdded.length &&
    !diff.dependenciesRemoved.length &&
    !diff.jobChanged &&
    !diff.subgraphsChanged &&
    !diff.planFieldsChanged.length
  );
}

/** How a task of the newer revision differs from the base, as the review canvas marks it. */
export type TaskMark =
  | { kind: 'added' }
  | { kind: 'replaces'; replaces: string }
  /** `fields` names what changed; `dependencies` when only its incoming edges did. */
  | { kind: 'changed'; fields: string[] };

/**
 * One mark per task of the newer revision that is not as it was: added, a replacement of a
 * removed task, or changed (fields or dependencies). Unchanged tasks have no entry. O(tasks + edges).
 */
export function taskMarks(diff: PlanDiff): Map<string, TaskMark> {
  const marks = new Map<string, TaskMark>();
  for (const task of diff.added) marks.set(task.task_id, { kind: 'added' });
  for (const r of diff.replacements) for (const { task } of r.tasks) marks.set(task.task_id, { kind: 'replaces', replaces: r.replaces.task_id });
  for (const c of diff.changed) marks.set(c.task_id, { kind: 'changed', fields: c.fields.map((f) => f.field) });
  // A task's dependencies are its own field: an edge into it added or removed changes it.
  const gone = new Set(diff.removed.map((t) => t.task_id));
  for (const edge of [...diff.dependenciesAdded, ...diff.dependenciesRemoved]) {
    if (gone.has(edge.to)) continue;
    const mark = marks.get(edge.to);
    if (!mark) marks.set(edge.to, { kind: 'changed', fields: ['dependencies'] });
    else if (mark.kind === 'changed' && !mark.fields.includes('dependencies')) mark.fields.push('dependencies');
  }
  return marks;
}
