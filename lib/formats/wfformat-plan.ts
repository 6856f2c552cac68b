import type { TaskDataInput } from '@/lib/plan';
import type { WfWorkflow } from './wfformat';

/**
 * A WfCommons workflow as a Stage 1 plan: every task is a tool call (a program the
 * workflow runs), named after the program, with its measured runtime as the latency
 * estimate. The trace's task name carries the program, e.g. "mProject_ID0000001".
 */
export function taskDataFromWorkflow(workflow: WfWorkflow): TaskDataInput {
  return {
    task_id: `wfcommons-${workflow.name}`,
    original_job_data: { source: 'wfcommons', workflow: workflow.name },
    planned_tasks: workflow.tasks.map((task) => ({
      task_id: task.task_id,
      description: task.description,
      execution_type: 'tool',
      tool_id: task.description.replace(/_ID\d+$/, ''),
      dependencies: task.dependencies,
      estimate_data: task.runtime_ms === null ? null : { latency_ms: task.runtime_ms },
    })),
  };
}
