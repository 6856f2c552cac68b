import { executionKind, type PlannerTask } from '@/lib/plan';
import { DATA_RULE, fences } from '@/lib/planning/prompts';

// Seed 000's OptimizationPlanner prompt: the plan's tasks go to the model as data between
// nonce markers (task text is written by users and planners, so it must not be able to
// pose as instructions), and it is asked for a grouping by what the tasks are for.

export type PromptTask = Pick<PlannerTask, 'task_id' | 'description' | 'execution_type' | 'dependencies' | 'tool_id' | 'agent_id' | 'function_id'> &
  Partial<Pick<PlannerTask, 'parameters'>>;

/** Enough of a description to say what a task is for; the plan limit (10 kB each) would swamp the prompt. */
export const MAX_PROMPT_DESCRIPTION_CHARS = 500;

function clip(text: string): string {
  return text.length > MAX_PROMPT_DESCRIPTION_CHARS ? `${text.slice(0, MAX_PROMPT_DESCRIPTION_CHARS)}…` : text;
}

export function groupingPrompt(tasks: readonly PromptTask[], workers: number): { system: string; user: string } {
  const data = fences()(
    'TASKS',
    tasks.map((t) => ({
      id: t.task_id,
      description: clip(t.description ?? ''),
      // The kind, not the stored spelling: seed 000's l2_task says nothing without its sub_type.
      execution_type: executionKind(t),
      target: t.tool_id ?? t.agent_id ?? t.function_id ?? null,
      dependencies: t.dependencies,
    })),
  );
  return {
    system: [
      'You optimise the execution of a workflow DAG by grouping its tasks into subgraphs.',
      'A subgraph is dispatched as one unit to one worker, which runs its tasks one after another; it starts once every subgraph holding a prerequisite of its tasks has finished.',
      'Group tasks that belong together by what they are for, such as a chain of steps where each feeds the next, so fewer dispatches are needed.',
      `Keep independent branches in separate subgraphs so they can run in parallel on the ${workers} available ${workers === 1 ? 'worker' : 'workers'}.`,
      'Rules: every task id in exactly one subgraph; use only the task ids given; subgraph ids unique; no two subgraphs may wait on each other, directly or through others',
      '(if a task in A depends on a task in B, no task in B may depend, directly or indirectly, on a task in A).',
      'Dependencies between subgraphs are derived from the tasks, so do not send them.',
      'Answer with one JSON object { "subgraphs": [{ "subgraph_id": "sg-1", "task_ids": ["..."], "reason": "why these tasks belong together" }] } and nothing else.',
      DATA_RULE,
    ].join(' '),
    user: `The tasks of the plan (id, description, execution_type, target, dependencies):\n\n${data}`,
  };
}
