import { buildGraphIndex } from '@/lib/graph';
import type { TaskData } from '@/lib/plan';
import { executionTypeIssues } from './execution-type-checks';
import type { ValidationResult } from './issue';
import { structureIssues } from './structure-checks';

/**
 * Every issue in a plan, errors first. Runs unchanged in the browser (live feedback while
 * editing) and on the server (the authority before review and approval).
 */
export function validatePlan(plan: Pick<TaskData, 'planned_tasks'>): ValidationResult {
  const tasks = plan.planned_tasks;
  if (tasks.length === 0) {
    return {
      valid: true,
      issues: [{ severity: 'warning', code: 'empty_plan', message: 'The plan has no tasks', task_ids: [] }],
    };
  }
  const issues = [...structureIssues(buildGraphIndex(tasks), tasks.length), ...executionTypeIssues(tasks)];
  issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return { valid: !issues.some((issue) => issue.severity === 'error'), issues };
}
