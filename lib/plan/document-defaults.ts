import type { z } from 'zod';
import { PlanDocumentInput, type PlanDocument, type PlannerTask, type PlannerTaskInput, type TaskData, type TaskDataInput } from './schema';
import { nowTimestamp } from './timestamps';

// The one place a document's generated values are made: task and plan ids that were not
// sent, and the timestamps of what the caller is creating. They are filled once, when a
// document is created or saved, from the caller's clock and id source, so parsing a
// stored body never changes what its content hash covers, and tests can fix both.

export interface DocumentDefaults {
  /** The timestamp written into every missing creation and update time of this save. */
  now: string;
  /** A fresh id for each task or plan sent without one. */
  newId: () => string;
}

/**
 * The ids and the time a create or save fills in where the client sent none: one
 * timestamp for the whole save, in Python's `utcnow().isoformat()` form (./timestamps).
 */
export function freshDocumentDefaults(): DocumentDefaults {
  return { now: nowTimestamp(), newId: () => crypto.randomUUID() };
}

/** Parsed client input: constant defaults applied, ids and timestamps possibly missing. */
export type ParsedTaskInput = z.output<typeof PlannerTaskInput>;
export type ParsedTaskDataInput = z.output<typeof TaskDataInput>;
export type ParsedDocumentInput = z.output<typeof PlanDocumentInput>;

export function completeTask(task: ParsedTaskInput, defaults: DocumentDefaults): PlannerTask {
  return {
    ...task,
    task_id: task.task_id ?? defaults.newId(),
    creation_time: task.creation_time ?? defaults.now,
    last_update_time: task.last_update_time ?? defaults.now,
  };
}

export function completeTaskData(plan: ParsedTaskDataInput, defaults: DocumentDefaults): TaskData {
  return {
    ...plan,
    task_id: plan.task_id ?? defaults.newId(),
    creation_time: plan.creation_time ?? defaults.now,
    update_time: plan.update_time ?? defaults.now,
    planned_tasks: plan.planned_tasks.map((task) => completeTask(task, defaults)),
  };
}

/** A parsed client document with its ids and timestamps filled: the stored document. */
export function completeDocument(input: ParsedDocumentInput, defaults: DocumentDefaults): PlanDocument {
  return { ...input, plan: completeTaskData(input.plan, defaults) };
}

/** A new plan's document from what a create request or an import names: parsed, its ids and times filled. */
export function newPlanDocument(
  input: { plan: unknown; job?: unknown; subgraphs?: unknown; view?: unknown },
  defaults: DocumentDefaults = freshDocumentDefaults(),
): PlanDocument {
  return completeDocument(PlanDocumentInput.parse({ plan: input.plan, job: input.job, subgraphs: input.subgraphs, view: input.view }), defaults);
}
