import { PlannerTask, type PlanDocument, type PlannerTaskInput, type Position } from './schema';
import canonicalize from 'canonicalize';
import type { z } from 'zod';

// Pure edit commands: each returns a new document and never mutates its input. Tasks
// that a command does not touch are shared by reference, so an edit on a 20,000-task
// plan copies one array, not every task.

export class PlanCommandError extends Error {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(`${command}: ${message}`);
    this.name = 'PlanCommandError';
  }
}

type TaskPatch = Partial<Omit<PlannerTaskInput, 'task_id'>>;

function indexOfTask(doc: PlanDocument, command: string, taskId: string): number {
  const index = doc.plan.planned_tasks.findIndex((t) => t.task_id === taskId);
  if (index < 0) throw new PlanCommandError(command, `task "${taskId}" does not exist`);
  return index;
}

function withTasks(doc: PlanDocument, planned_tasks: PlannerTask[]): PlanDocument {
  return { ...doc, plan: { ...doc.plan, planned_tasks } };
}

function parseTask(command: string, input: unknown): PlannerTask {
  const parsed = PlannerTask.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first.path.length ? ` (${first.path.join('.')})` : '';
    throw new PlanCommandError(command, `${first.message}${where}`);
  }
  return parsed.data;
}

export function addTask(
  doc: PlanDocument,
  input: PlannerTaskInput,
  position?: z.infer<typeof Position>,
): PlanDocument {
  const task = parseTask('addTask', input);
  if (doc.plan.planned_tasks.some((t) => t.task_id === task.task_id)) {
    throw new PlanCommandError('addTask', `task "${task.task_id}" already exists`);
  }
  const next = withTasks(doc, [...doc.plan.planned_tasks, task]);
  if (!position) return next;
  return { ...next, view: { ...doc.view, positions: { ...doc.view.positions, [task.task_id]: position } } };
}

export function updateTask(doc: PlanDocument, taskId: string, patch: TaskPatch): PlanDocument {
  const index = indexOfTask(doc, 'updateTask', taskId);
  if ('task_id' in patch) throw new PlanCommandError('updateTask', 'task_id cannot be changed');
  const current = doc.plan.planned_tasks[index];
  const updated = parseTask('updateTask', { ...current, ...patch });
  if (canonicalize(updated) === canonicalize(current)) return doc;
  const tasks = doc.plan.planned_tasks.slice();
  tasks[index] = updated;
  return withTasks(doc, tasks);
}

/** Removes the tasks and every dependency, position and subgraph membership that names them. */
export function removeTasks(doc: PlanDocument, taskIds: readonly string[]): PlanDocument {
  const doomed = new Set(taskIds);
  for (const id of doomed) indexOfTask(doc, 'removeTasks', id);
  const tasks: PlannerTask[] = [];
  for (const task of doc.plan.planned_tasks) {
    if (doomed.has(task.task_id)) continue;
    tasks.push(
      task.dependencies.some((d) => doomed.has(d))
        ? { ...task, dependencies: task.dependencies.filter((d) => !doomed.has(d)) }
        : task,
    );
  }
  const positions = Object.fromEntries(Object.entries(doc.view.positions).filter(([id]) => !doomed.has(id)));
  const subgraphs = doc.subgraphs.map((sg) =>
    sg.task_ids.some((id) => doomed.has(id)) ? { ...sg, task_ids: sg.task_ids.filter((id) => !doomed.has(id)) } : sg,
  );
  return { ...withTasks(doc, tasks), subgraphs, view: { ...doc.view, positions } };
}

/** Makes `to` depend on `from` (an edge from → to). */
export function addDependency(doc: PlanDocument, from: string, to: string): PlanDocument {
  if (from === to) throw new PlanCommandError('addDependency', `task "${to}" cannot depend on itself`);
  indexOfTask(doc, 'addDependency', from);
  const index = indexOfTask(doc, 'addDependency', to);
  const target = doc.plan.planned_tasks[index];
  if (target.dependencies.includes(from)) {
    throw new PlanCommandError('addDependency', `task "${to}" already depends on "${from}"`);
  }
  const tasks = doc.plan.planned_tasks.slice();
  tasks[index] = { ...target, dependencies: [...target.dependencies, from] };
  return withTasks(doc, tasks);
}

export function removeDependency(doc: PlanDocument, from: string, to: string): PlanDocument {
  const index = indexOfTask(doc, 'removeDependency', to);
  const target = doc.plan.planned_tasks[index];
  if (!target.dependencies.includes(from)) {
    throw new PlanCommandError('removeDependency', `task "${to}" does not depend on "${from}"`);
  }
  const tasks = doc.plan.planned_tasks.slice();
  tasks[index] = { ...target, dependencies: target.dependencies.filter((d) => d !== from) };
  return withTasks(doc, tasks);
}

/** Moves one end of an edge, as dragging an edge end onto another task does. */
export function moveDependency(
  doc: PlanDocument,
  edge: { from: string; to: string },
  next: { from: string; to: string },
): PlanDocument {
  return addDependency(removeDependency(doc, edge.from, edge.to), next.from, next.to);
}

export function setPositions(doc: PlanDocument, positions: Record<string, z.infer<typeof Position>>): PlanDocument {
  const same = Object.entries(positions).every(([id, p]) => doc.view.positions[id]?.x === p.x && doc.view.positions[id]?.y === p.y);
  if (same) return doc;
  return { ...doc, view: { ...doc.view, positions: { ...doc.view.positions, ...positions } } };
}
