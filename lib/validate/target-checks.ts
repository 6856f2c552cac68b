import { executionKind, type PlannerTask } from '@/lib/plan';
import type { ValidationIssue } from './issue';

// A task of a kind that is executed by a named resource must name it: an executor handed an
// agent task without an agent_id has nobody to send it to. The fields are the ones the
// registry checks resolve (registry-checks `targetOf`): an agent's `agent_id`, a tool's
// `tool_id` (a tool or function), a DSL workflow's `function_id`. An LLM task may leave its
// model (`function_id`) to Stage 2 or the executor's default, so it needs none.

const TARGET_FIELD: Partial<Record<string, { field: 'agent_id' | 'tool_id' | 'function_id'; what: string }>> = {
  agent: { field: 'agent_id', what: 'the agent that executes it' },
  tool: { field: 'tool_id', what: 'the tool or function it calls' },
  dsl: { field: 'function_id', what: 'the DSL workflow it runs' },
};

export function targetIssues(tasks: readonly PlannerTask[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const task of tasks) {
    const kind = executionKind(task);
    const needed = TARGET_FIELD[kind];
    if (!needed || task[needed.field]?.trim()) continue;
    issues.push({
      severity: 'error',
      code: 'missing_target',
      message: `Task "${task.task_id}" is a ${kind} task without a ${needed.field} (${needed.what})`,
      task_ids: [task.task_id],
    });
  }
  return issues;
}
