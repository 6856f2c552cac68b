import { invisibleCharacters, type PlannerTask, type TaskData } from '@/lib/plan';
import type { ValidationIssue } from './issue';

// Ids and descriptions are what a reviewer reads before approving. Bidirectional controls
// and zero-width characters make them read as something else (lib/plan/invisible-characters),
// so each one found is a warning that names the characters visibly.

function found(where: string, text: string | null | undefined): string | null {
  const chars = invisibleCharacters(text);
  return chars.length ? `${where} contains invisible or direction-changing characters (${chars.join(', ')})` : null;
}

export function invisibleCharacterIssues(plan: { planned_tasks: readonly PlannerTask[]; task_id?: TaskData['task_id'] }): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const planId = found(`The plan's task_id "${plan.task_id ?? ''}"`, plan.task_id);
  if (planId) issues.push({ severity: 'warning', code: 'invisible_characters', message: planId, task_ids: [] });
  for (const task of plan.planned_tasks) {
    const messages = [found(`Task id "${task.task_id}"`, task.task_id), found(`The description of task "${task.task_id}"`, task.description)];
    for (const message of messages) {
      if (message) issues.push({ severity: 'warning', code: 'invisible_characters', message, task_ids: [task.task_id] });
    }
  }
  return issues;
}

/** The plan's title is stored beside the plan, not in it, so the server adds this to a stored plan's result. */
export function titleIssue(title: string): ValidationIssue | null {
  const message = found(`The plan's title "${title}"`, title);
  return message ? { severity: 'warning', code: 'invisible_characters', message, task_ids: [] } : null;
}
