import { namesSteps, type PlanDocument, type PlannerTask } from '@/lib/plan';
import { DATA_RULE, fences, prepareJobData, prepareResourcesDescription } from '@/lib/planning/prompts';
import type { Registry } from '@/lib/registry';
import { nextStepNumber } from './new-task-ids';

// Seed 000's SubGraphRePlanner prompt: the plan, the marked tasks and the operator's
// instruction (custom_append_text) go to the model as fenced data, never as instructions.

export const REPLAN_ANSWER_FORMAT = '{ "replacements": [{ "replaces": "<task_id of a marked task>", "tasks": [PlannerTask, ...] }] }';

/** What the model needs of each task to see the plan; run-time fields (status, output, timestamps) are left out. */
function planView(task: PlannerTask) {
  const { task_id, description, execution_type, agent_id, tool_id, function_id, dependencies, arguments: args, parameters, instructions, mark_replan } = task;
  return { task_id, description, execution_type, agent_id, tool_id, function_id, dependencies, arguments: args, parameters, instructions, mark_replan };
}

/** How new ids must look: a plan that names its tasks step-<n> is read by those numbers. */
function idRule(tasks: readonly PlannerTask[]): string {
  const ids = tasks.map((t) => t.task_id);
  if (!namesSteps(ids)) return 'Give every new task a task_id that no task in PLAN has (for example "<replaced id>-r1").';
  const next = nextStepNumber(ids);
  return `The plan names its tasks step-<n> and templates \${step[n]...} read those numbers: name new tasks step-${next}, step-${next + 1} and so on, and write templates with those numbers.`;
}

export function replanPrompt(doc: PlanDocument, taskIds: readonly string[], instructions: string, registry: Registry): { system: string; user: string } {
  const fenced = fences();
  const marked = new Set(taskIds);
  const tasks = doc.plan.planned_tasks;
  return {
    system: [
      'You are the replanner of an agent system. Some tasks of a plan are marked for replanning (mark_replan, listed in MARKED_TASKS).',
      'Replace each marked task, and only those, with one or more new tasks that do its job better, following INSTRUCTIONS when given.',
      `Answer with one JSON object ${REPLAN_ANSWER_FORMAT} and nothing else, with exactly one replacement per marked task.`,
      'Each new task: task_id, description, execution_type ("agent" | "tool" | "llm" | "dsl"), the target id for its type',
      '(agent_id for agents, tool_id for tools, function_id naming the LLM or DSL workflow), arguments (per the tool input_schema), instructions.',
      idRule(tasks),
      'Several tasks in one replacement form a chain: a task lists in dependencies the tasks of the same replacement it waits for, or tasks of PLAN other than the one replaced.',
      "The replacement's first tasks take over the replaced task's dependencies, and every task that depended on the replaced task will wait for the replacement's last tasks; do not name the replaced task itself.",
      'Use only resources listed in RESOURCES.',
      DATA_RULE,
    ].join(' '),
    user: [
      prepareJobData(doc.job, fenced),
      fenced('PLAN', tasks.map(planView)),
      fenced(
        'MARKED_TASKS',
        tasks.filter((t) => marked.has(t.task_id)).map(({ output: _output, creation_time: _c, last_update_time: _u, status: _s, ...task }) => task),
      ),
      prepareResourcesDescription(registry, fenced),
      instructions ? fenced('INSTRUCTIONS', instructions) : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}
