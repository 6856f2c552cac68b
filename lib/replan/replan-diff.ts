import { changedFields, diffPlans, type PlanDiff, type PlanDocument, type PlannerTask, type TaskChange } from '@/lib/plan';
import { applyReplacements, ReplanError } from './apply-replacements';
import type { Replacement } from './replan-types';

// What the operator reviews for each proposed replacement before accepting it: the task
// before and the tasks after, field by field, and the edges that change around it.

export type FieldChange = TaskChange['fields'][number];
export type Edge = PlanDiff['dependenciesAdded'][number];

export interface ReplacementDiff {
  replaces: string;
  before: PlannerTask;
  after: PlannerTask[];
  /** The replaced task against the first new task; ids, the link back and timestamps left out. */
  fields: FieldChange[];
  edges_added: Edge[];
  edges_removed: Edge[];
  /** Why this replacement cannot be applied on its own, or null. */
  error: string | null;
}

// Fields that always differ between a task and its replacement, so they say nothing.
const UNCOMPARED = new Set<keyof PlannerTask>(['task_id', 'main_task_id', 'dependencies', 'mark_replan', 'creation_time', 'last_update_time']);

/** The diff of each replacement applied alone to `doc`, in the replacements' order. */
export function replanDiff(doc: PlanDocument, replacements: readonly Replacement[]): ReplacementDiff[] {
  const byId = new Map(doc.plan.planned_tasks.map((t) => [t.task_id, t]));
  const diffs: ReplacementDiff[] = [];
  for (const r of replacements) {
    const before = byId.get(r.replaces);
    if (before) diffs.push(diffOne(doc, r, before));
  }
  return diffs;
}

function diffOne(doc: PlanDocument, r: Replacement, before: PlannerTask): ReplacementDiff {
  let applied: PlanDocument;
  try {
    applied = applyReplacements(doc, [r], [r.replaces]);
  } catch (error) {
    if (!(error instanceof ReplanError)) throw error;
    return { replaces: r.replaces, before, after: r.tasks, fields: fieldChanges(before, r.tasks[0]), edges_added: [], edges_removed: [], error: error.message };
  }
  const diff = diffPlans(doc, applied);
  return {
    replaces: r.replaces,
    before,
    after: diff.added,
    fields: fieldChanges(before, diff.added[0]),
    edges_added: diff.dependenciesAdded,
    edges_removed: diff.dependenciesRemoved,
    error: null,
  };
}

function fieldChanges(before: PlannerTask, after: PlannerTask | undefined): FieldChange[] {
  return after ? changedFields(before, after).filter((f) => !UNCOMPARED.has(f.field)) : [];
}
