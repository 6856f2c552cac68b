import { EXECUTION_TYPE_DESCRIPTORS, executionKind, isExecutionType, type PlannerTask } from '@/lib/plan';
import { withArticle } from './indefinite-article';
import type { ValidationIssue } from './issue';

// A task of a kind that is executed by a named resource must name it: an executor handed an
// agent task without an agent_id has nobody to send it to. The fields are the ones the
// registry checks resolve (lib/plan EXECUTION_TYPE_DESCRIPTORS). An LLM task may leave its
// model (`function_id`) to Stage 2 or the executor's default, so it needs none.

export function targetIssues(tasks: readonly PlannerTask[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const task of tasks) {
    const kind = executionKind(task);
    if (!isExecutionType(kind)) continue;
    const { requiredTarget: what, targetField } = EXECUTION_TYPE_DESCRIPTORS[kind];
    if (!what || task[targetField]?.trim()) continue;
    issues.push({
      severity: 'error',
      code: 'missing_target',
      message: `Task "${task.task_id}" is ${withArticle(kind)} task without ${withArticle(targetField)} (${what})`,
      task_ids: [task.task_id],
    });
  }
  return issues;
}
