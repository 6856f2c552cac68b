import { nowTimestamp, type PlanDocument, type PlannerTask } from '@/lib/plan';
import { uniqueId } from './unique-id';

export interface ClipboardContent {
  tasks: PlannerTask[];
  positions: Record<string, { x: number; y: number }>;
}

export function copyTasks(doc: PlanDocument, ids: ReadonlySet<string>): ClipboardContent | null {
  const tasks = doc.plan.planned_tasks.filter((t) => ids.has(t.task_id));
  if (!tasks.length) return null;
  const positions = Object.fromEntries(tasks.flatMap((t) => (doc.view.positions[t.task_id] ? [[t.task_id, doc.view.positions[t.task_id]]] : [])));
  return { tasks, positions };
}

/**
 * Copies of the clipboard's tasks under fresh ids. Edges among the copied tasks are kept
 * (re-pointed at the copies); edges to tasks outside the copy are dropped, since a paste
 * should not silently make old tasks wait on new ones or vice versa.
 */
export function pasteTasks(
  doc: PlanDocument,
  clip: ClipboardContent,
  offset = { x: 40, y: 40 },
): { tasks: PlannerTask[]; positions: Record<string, { x: number; y: number }> } {
  const taken = new Set(doc.plan.planned_tasks.map((t) => t.task_id));
  const rename = new Map<string, string>();
  for (const task of clip.tasks) {
    const id = uniqueId(`${task.task_id}-copy`, taken);
    taken.add(id);
    rename.set(task.task_id, id);
  }
  const now = nowTimestamp();
  const tasks = clip.tasks.map((task) => ({
    ...task,
    task_id: rename.get(task.task_id)!,
    dependencies: task.dependencies.filter((d) => rename.has(d)).map((d) => rename.get(d)!),
    status: 'pending',
    output: {},
    creation_time: now,
    last_update_time: now,
  }));
  const positions: Record<string, { x: number; y: number }> = {};
  for (const [id, pos] of Object.entries(clip.positions)) positions[rename.get(id)!] = { x: pos.x + offset.x, y: pos.y + offset.y };
  return { tasks, positions };
}
