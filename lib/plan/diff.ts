import canonicalize from 'canonicalize';
import type { PlanDocument, PlannerTask } from './schema';

// What changed between two revisions, in the terms a reviewer reads: tasks added,
// removed and changed (by field), and dependencies added and removed.

export interface TaskChange {
  task_id: string;
  fields: Array<{ field: keyof PlannerTask; before: unknown; after: unknown }>;
}

export interface PlanDiff {
  added: PlannerTask[];
  removed: PlannerTask[];
  changed: TaskChange[];
  dependenciesAdded: Array<{ from: string; to: string }>;
  dependenciesRemoved: Array<{ from: string; to: string }>;
  jobChanged: boolean;
  subgraphsChanged: boolean;
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
  return {
    added: [...next.values()].filter((t) => !old.has(t.task_id)),
    removed: [...old.values()].filter((t) => !next.has(t.task_id)),
    changed,
    dependenciesAdded: [...afterEdges].filter((e) => !beforeEdges.has(e)).map(asEdge),
    dependenciesRemoved: [...beforeEdges].filter((e) => !afterEdges.has(e)).map(asEdge),
    jobChanged: !same(before.job, after.job),
    subgraphsChanged: !same(before.subgraphs, after.subgraphs),
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
