import { EXECUTION_TYPES, EXECUTION_TYPE_LIST, executionKind, isExecutionType, type PlannerTask } from '@/lib/plan';
import type { ValidationIssue } from './issue';

const KNOWN = EXECUTION_TYPES.join(', ');
const SEED_SUB_TYPES = EXECUTION_TYPE_LIST.map((d) => d.seedSubType).join(', ');

// The stored execution_type is kept as the planner wrote it; what is checked is the kind it
// routes to (seed 000's l2_task by parameters.sub_type, spellings such as tool_call).
export function executionTypeIssues(tasks: readonly PlannerTask[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const task of tasks) {
    const type = executionKind(task);
    if (!type) {
      issues.push({
        severity: 'error',
        code: 'missing_execution_type',
        message: `Task "${task.task_id}" has no execution_type; choose one of ${KNOWN}`,
        task_ids: [task.task_id],
      });
    } else if (!isExecutionType(type)) {
      const l2 = type.trim().toLowerCase() === 'l2_task';
      issues.push({
        severity: 'error',
        code: 'unknown_execution_type',
        message: l2
          ? `Task "${task.task_id}" is an l2_task whose parameters.sub_type is not one of ${SEED_SUB_TYPES}`
          : `Task "${task.task_id}" has execution_type "${type}"; expected one of ${KNOWN}`,
        task_ids: [task.task_id],
      });
    }
  }
  return issues;
}
