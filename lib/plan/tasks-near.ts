import type { PlanDocument, PlannerTask } from './schema';

/**
 * What a big plan's page carries for a link to one of its tasks: that task and the tasks
 * saved nearest it, with their positions, drawn while the whole plan loads.
 */
export interface TasksNear {
  taskId: string;
  /** The linked task first, then the others nearest first, each as the whole revision reads it. */
  tasks: PlannerTask[];
  positions: PlanDocument['view']['positions'];
}
