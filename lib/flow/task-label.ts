import type { PlannerTask } from '@/lib/plan';

const MAX = 48;

/** A short human name for a task: its description's first words, else its id. */
export function taskLabel(task: Pick<PlannerTask, 'task_id' | 'description'> | undefined, fallbackId = ''): string {
  const text = task?.description?.trim();
  if (!text) return task?.task_id ?? fallbackId;
  const firstLine = text.split('\n', 1)[0];
  return firstLine.length > MAX ? `${firstLine.slice(0, MAX - 1).trimEnd()}…` : firstLine;
}
