import type { z } from 'zod';
import type { PatchPlanRequest } from '@/lib/api/schemas';
import type { PlanDocument, PlannerTask, TaskData } from '@/lib/plan';

// What a save sends: the change from the revision the editor opened (or last saved) to the
// document it holds now, so a one-task edit of a 20,000-task plan sends one task. Edits
// replace what they change (the store is immutable), so an unchanged task, job or position
// is the very object it was, and identity finds the change without comparing contents.

export type PlanPatch = Omit<z.input<typeof PatchPlanRequest>, 'base_revision' | 'title' | 'message'>;

type PlanFields = Omit<TaskData, 'planned_tasks'>;

/**
 * The patch from `saved` to `doc`, or null when the server would not rebuild `doc` from
 * one: it keeps the base's order, replaces tasks where they stand and appends new ones, so
 * a reordered plan is saved whole.
 */
export function planPatch(saved: PlanDocument, doc: PlanDocument, collapsed: string[]): PlanPatch | null {
  const before = new Map(saved.plan.planned_tasks.map((task) => [task.task_id, task]));
  const ids = new Set(doc.plan.planned_tasks.map((task) => task.task_id));
  if (ids.size !== doc.plan.planned_tasks.length) return null;
  const remove = saved.plan.planned_tasks.filter((task) => !ids.has(task.task_id)).map((task) => task.task_id);
  const upsert: PlannerTask[] = doc.plan.planned_tasks.filter((task) => before.get(task.task_id) !== task);

  const kept = saved.plan.planned_tasks.filter((task) => ids.has(task.task_id)).map((task) => task.task_id);
  const added = doc.plan.planned_tasks.filter((task) => !before.has(task.task_id)).map((task) => task.task_id);
  const order = [...kept, ...added];
  if (order.some((taskId, i) => doc.plan.planned_tasks[i].task_id !== taskId)) return null;

  const patch: PlanPatch = { collapsed };
  if (upsert.length) patch.upsert_tasks = upsert;
  if (remove.length) patch.remove_tasks = remove;
  const fields: Partial<PlanFields> = {};
  for (const key of Object.keys(doc.plan) as Array<keyof TaskData>) {
    if (key !== 'planned_tasks' && doc.plan[key] !== saved.plan[key]) Object.assign(fields, { [key]: doc.plan[key] });
  }
  if (Object.keys(fields).length) patch.plan_fields = fields;
  if (doc.job !== saved.job) patch.job = doc.job;
  if (doc.subgraphs !== saved.subgraphs) patch.subgraphs = doc.subgraphs;
  if (doc.view.positions !== saved.view.positions) {
    const positions: NonNullable<PlanPatch['positions']> = {};
    for (const [key, position] of Object.entries(doc.view.positions)) {
      if (saved.view.positions[key] !== position) positions[key] = position;
    }
    for (const key of Object.keys(saved.view.positions)) {
      if (!(key in doc.view.positions)) positions[key] = null;
    }
    if (Object.keys(positions).length) patch.positions = positions;
  }
  return patch;
}
