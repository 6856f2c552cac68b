import { EXECUTION_TYPES, isExecutionType, type PlannerTask } from '@/lib/plan';
import type { ValidationIssue } from './issue';

const KNOWN = EXECUTION_TYPES.join(', ');

export function executionTypeIssues(tasks: readonly PlannerTask[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const task of tasks) {
    const type = task.execution_type;
    if (!type) {
      issues.push({
        severity: 'error',
        code: 'missing_execution_type',
        message: `Task "${task.task_id}" has no execution_type; choose one of ${KNOWN}`,
        task_ids: [task.task_id],
      });
    } else if (!isExecutionType(type)) {
      issues.push({
        severity: 'error',
        code: 'unknown_execution_type',
        message: `Task "${task.task_id}" has execution_type "${type}"; expected one of ${KNOWN}`,
        task_ids: [task.task_id],
      });
    }
  }
  return issues;
}
