import { PlannerTask, executionKind, executionTypeDescriptor } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import type { PlanningBackend, Stage1Input, Stage2Result } from './planning-types';
import { QueryPlanError } from './rule-based/query-planner';
import { ruleBasedStage1 } from './rule-based/rule-based-stage1';
import { candidatesFor } from './stage2-check';

// The offline default: deterministic rules, no model. It reads seed 001's kind of
// shipment queries; for anything else it says so and plans the goal as one LLM task,
// rather than pretending to understand it.

function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

function oneTaskFallback(input: Stage1Input, registry: Registry, reason: string) {
  const llm = registry.llms[0]?.name ?? null;
  const task = PlannerTask.parse({
    task_id: 'task-1',
    description: input.task_description,
    execution_type: 'llm',
    function_id: llm,
    instructions: input.custom_notes || null,
  });
  return { tasks: [task], notes: [`No planning rule matched (${reason}); the whole goal became one LLM task. Use the LLM planner for open-ended goals.`] };
}

function project(data: Record<string, unknown>, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = schema?.properties as Record<string, unknown> | undefined;
  if (!properties) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => key in properties));
}

export const ruleBasedBackend: PlanningBackend = {
  backend: 'rule-based',
  model: 'rules (seed 001 shipment queries)',
  label: 'Rule-based planner: deterministic rules for shipment, facility, contaminant and inspection queries; no model',

  async stage1(input, registry, progress) {
    progress('Reading the query with the planning rules');
    try {
      return ruleBasedStage1({ query: input.task_description, today: input.today ?? todayIso() });
    } catch (error) {
      if (!(error instanceof QueryPlanError)) throw error;
      // The planner's own message lists its whole vocabulary; the note keeps the first sentence.
      return oneTaskFallback(input, registry, (error as Error).message.split(/(?<=\.)\s/)[0].slice(0, 200));
    }
  },

  async stage2(task, inputData, registry): Promise<Stage2Result> {
    const kind = executionKind(task);
    const candidates = candidatesFor(task, registry);
    const field = executionTypeDescriptor(kind)?.targetField;
    const own = field && task[field];
    const uid = own && candidates.has(own) ? own : [...candidates.keys()][0];
    if (!uid) throw new Error(`The registry has no ${kind} resource to execute task "${task.task_id}"`);
    const schema = candidates.get(uid);
    const prompt = [task.description, task.instructions].filter(Boolean).join('\n\n');
    const base: Record<string, unknown> =
      kind === 'tool'
        ? { ...task.arguments }
        : kind === 'llm'
          ? { prompt }
          : kind === 'agent'
            ? { task: prompt }
            : {};
    const input_data = { ...base, ...project(inputData, schema) };
    return { uid, input_data, plan: `Rule: ${uid === own ? `the task's own ${kind} target` : `first registered ${kind}`}; input from the task${Object.keys(inputData).length ? ' and the given input data' : ''}.` };
  },
};
