import type { PlannerTask } from '@/lib/plan';

// Components that ask "is this task in the document?" run on every store change; a plan can
// hold 20,000 tasks. A document's task list is never mutated (each edit makes a new one), so
// its index is built once per list and shared by every reader.

const indexes = new WeakMap<readonly PlannerTask[], ReadonlyMap<string, PlannerTask>>();

/** The tasks of one task list by id, built on first use. */
export function tasksById(tasks: readonly PlannerTask[]): ReadonlyMap<string, PlannerTask> {
  let index = indexes.get(tasks);
  if (!index) {
    index = new Map(tasks.map((task) => [task.task_id, task]));
    indexes.set(tasks, index);
  }
  return index;
}
