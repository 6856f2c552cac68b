import type { PlannerTask, PlannerTaskInput, TaskDataInput } from '@/lib/plan';
import type { WfWorkflow } from './wfformat';

/** The task fields Plangate's WfFormat export keeps under each task's `plangate` key (WfFormat has none of its own for them). */
export const WF_EXTENSION_FIELDS = ['tool_id', 'status', 'mark_replan', 'parameters', 'output', 'estimate_data'] as const satisfies ReadonlyArray<keyof PlannerTask>;

/** The program a trace's task name names: "mProject_ID0000001" runs mProject. */
export const programOf = (name: string): string => name.replace(/_ID\d+$/, '');

/** What a plan imported from `workflow` keeps in original_job_data. */
export const wfOrigin = (name: string) => ({ source: 'wfcommons', workflow: name });

/**
 * A WfCommons workflow as a Stage 1 plan: every task is a tool call (a program the
 * workflow runs), named after the program, with its measured runtime as the latency
 * estimate. The trace's task name carries the program, e.g. "mProject_ID0000001".
 * A file Plangate exported also carries the fields kept under `plangate`, which win.
 */
export function taskDataFromWorkflow(workflow: WfWorkflow): TaskDataInput {
  return {
    task_id: workflow.name,
    original_job_data: wfOrigin(workflow.name),
    planned_tasks: workflow.tasks.map((task) => {
      // Checked with the rest of the document by the importer's schema.
      const kept: Partial<PlannerTaskInput> = Object.fromEntries(WF_EXTENSION_FIELDS.flatMap((f) => (task.plangate && f in task.plangate ? [[f, task.plangate[f]]] : [])));
      return {
        task_id: task.task_id,
        description: task.description,
        execution_type: 'tool',
        tool_id: programOf(task.description),
        dependencies: task.dependencies,
        estimate_data: task.runtime_ms === null ? null : { latency_ms: task.runtime_ms },
        ...kept,
      };
    }),
  };
}
