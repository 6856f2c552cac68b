import { PlannerTask, executionKind, hasStepTemplate, namesSteps, renumberStepTemplates } from '@/lib/plan';
import { ENTITY_TOOLS, QueryPlanError } from '@/lib/planning/rule-based/query-planner';
import { ruleBasedStage1 } from '@/lib/planning/rule-based/rule-based-stage1';
import { newTaskIds } from './new-task-ids';
import type { Replacement, Replanner, ReplanInput } from './replan-types';

// The offline replanner: no model, the same answer every time. A task that calls one of
// the shipment tools the planning rules know, and reads nothing from other tasks, is
// planned again from its description plus the instruction; any other task keeps its
// target and gets the instruction written into it. It does not redesign a task, and says so.

const RULE_TOOLS = new Set<string>(Object.values(ENTITY_TOOLS));

const readsSteps = (value: unknown) => hasStepTemplate(JSON.stringify(value));

/** `text` as a sentence: capitalised, ending in a full stop unless it has its own. */
function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function withInstruction(description: string | null, instructions: string): string {
  return [sentence(description ?? ''), sentence(instructions)].filter(Boolean).join(' ');
}

type Ids = (replaced: string) => string;

/** The rules' plan for the task's description and the instruction, or why there is none. */
function rulesPlan(task: PlannerTask, input: ReplanInput, stepIds: Ids, otherIds: Ids): { tasks: PlannerTask[]; note: string } | { reason: string } {
  if (executionKind(task) !== 'tool' || !task.tool_id || !RULE_TOOLS.has(task.tool_id)) {
    return { reason: `the planning rules only know ${[...RULE_TOOLS].join(', ')}` };
  }
  if (readsSteps(task.arguments)) return { reason: 'it reads the output of other tasks, which the rules would plan afresh' };
  let planned: ReturnType<typeof ruleBasedStage1>;
  try {
    planned = ruleBasedStage1({ query: `${task.description ?? ''} ${input.instructions}`.trim(), today: input.today });
  } catch (error) {
    if (!(error instanceof QueryPlanError)) throw error;
    return { reason: 'no planning rule matched its description and the instruction' };
  }
  const chained = planned.tasks.some((t) => readsSteps(t.arguments));
  const planIds = input.doc.plan.planned_tasks.map((t) => t.task_id);
  // Templates between the new steps name them step-<n>; in a plan read by position that
  // would change what every other template means.
  if (chained && !namesSteps(planIds) && input.doc.plan.planned_tasks.some((t) => readsSteps(t.arguments))) {
    return { reason: "the rules' steps pass data by step number, which this plan's numbering cannot hold" };
  }
  const ids = new Map(planned.tasks.map((t) => [t.task_id, (chained ? stepIds : otherIds)(task.task_id)]));
  const renumber = (n: number) => {
    const id = ids.get(`step-${n}`);
    return id === undefined ? undefined : Number(id.slice('step-'.length));
  };
  const single = planned.tasks.length === 1;
  const tasks = planned.tasks.map((t) =>
    PlannerTask.parse({
      ...t,
      task_id: ids.get(t.task_id),
      description: single ? withInstruction(task.description, input.instructions) : t.description,
      dependencies: t.dependencies.map((d) => ids.get(d) ?? d),
      arguments: chained ? renumberStepTemplates(t.arguments, renumber) : t.arguments,
      instructions: input.instructions || null,
    }),
  );
  const rules = planned.notes.slice(1).join(' ');
  return { tasks, note: `"${task.task_id}": planned again by the rules as ${tasks.length} step${single ? '' : 's'}. ${rules}`.trim() };
}

/** The task with the instruction written in, same target and arguments; its Stage 2 input is dropped, as it was made for the old task. */
function instructedCopy(task: PlannerTask, input: ReplanInput, id: string): PlannerTask {
  const { stage2: _stage2, ...parameters } = task.parameters;
  return PlannerTask.parse({
    task_id: id,
    description: withInstruction(task.description, input.instructions),
    execution_type: task.execution_type,
    agent_id: task.agent_id,
    tool_id: task.tool_id,
    function_id: task.function_id,
    parameters,
    arguments: task.arguments,
    instructions: input.instructions || task.instructions,
    convertor_code: task.convertor_code,
    estimate_data: task.estimate_data,
  });
}

export const ruleBasedReplanner: Replanner = {
  backend: 'rule-based',
  model: 'rules (seed 001 shipment queries)',
  label: 'Rule-based replanner: re-plans shipment-tool tasks with the planning rules and otherwise writes your instruction into the task; it does not redesign it',

  async replan(input) {
    const tasks = input.doc.plan.planned_tasks;
    const taken = new Set(tasks.map((t) => t.task_id));
    const stepIds = newTaskIds(taken, true);
    const otherIds = newTaskIds(taken, namesSteps([...taken]));
    const byId = new Map(tasks.map((t) => [t.task_id, t]));
    const replacements: Replacement[] = [];
    const notes = ['Replanned by fixed rules, not a language model.'];
    for (const taskId of input.taskIds) {
      const task = byId.get(taskId);
      if (!task) throw new Error(`Task "${taskId}" is not in the plan`);
      const planned = rulesPlan(task, input, stepIds, otherIds);
      if ('tasks' in planned) {
        replacements.push({ replaces: taskId, tasks: planned.tasks });
        notes.push(planned.note);
      } else {
        replacements.push({ replaces: taskId, tasks: [instructedCopy(task, input, otherIds(taskId))] });
        notes.push(`"${taskId}": not re-planned (${planned.reason}); ${input.instructions.trim() ? 'the instruction was added to the task' : 'no instruction was given, so only its id changed'}.`);
      }
    }
    return { replacements, notes };
  },
};
