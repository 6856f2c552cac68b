import type { PlannerTask } from './schema';

// The editor asks "is this task in the document?" on every store change, and a big canvas on
// every move of its window; a plan can hold 20,000 tasks. A task list is never mutated (each
// edit makes a new one), so its index is built once per list and shared by every reader.

const indexes = new WeakMap<readonly PlannerTask[], ReadonlyMap<string, PlannerTask>>();

/**
 * The tasks of one task list by id, built on first use. Of tasks sharing an id (validation
 * reports them) the first is kept, the one the canvas draws.
 */
export function tasksById(tasks: readonly PlannerTask[]): ReadonlyMap<string, PlannerTask> {
  let index = indexes.get(tasks);
  if (!index) {
    const built = new Map<string, PlannerTask>();
    for (const task of tasks) if (!built.has(task.task_id)) built.set(task.task_id, task);
    indexes.set(tasks, built);
    index = built;
  }
  return index;
}
