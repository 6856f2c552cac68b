import { z } from 'zod';
import { extractJson } from '@/lib/llm/extract-json';
import { JsonObject, PlannerTask } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import type { Stage1InputRaw } from './planning-types';

// Seed 000's Behavior Controller payloads, as Plangate accepts them when it serves as the
// controller for an existing Agents Planning System.

const PhaseData = z.object({
  task_input_data: z.union([z.string().min(1).max(50_000, 'At most 50,000 characters'), JsonObject]),
  n_history_samples: z.number().int().min(0).default(0),
  llm_data: z.record(z.string(), z.unknown()).default({}),
});

export const Phase1Payload = z.object({ search_id: z.string().min(1), phase_1_data: PhaseData });
export const Phase2Payload = z.object({ search_id: z.string().min(1), phase_2_data: PhaseData });

/** A structured prompt is planned as the task description; an object may carry Stage 1's fields. */
export function stage1InputOf(taskInputData: string | Record<string, unknown>): Stage1InputRaw {
  if (typeof taskInputData === 'string') return { task_description: taskInputData };
  const { job_goal, job_objectives, job_steerability_data, task_description, custom_notes, today } = taskInputData as Record<string, never>;
  return {
    job_goal,
    job_objectives,
    job_steerability_data,
    task_description: task_description ?? JSON.stringify(taskInputData),
    custom_notes,
    today,
  };
}

const KIND_WORDS: Array<[RegExp, PlannerTask['execution_type']]> = [
  [/\bagents?\b/i, 'agent'],
  [/\btools?\b/i, 'tool'],
  [/\bdsl\b|\bworkflows?\b/i, 'dsl'],
  [/\bllms?\b|\bmodels?\b/i, 'llm'],
];

/** The JSON object a prompt carries (bare, fenced or amid prose), or none. */
function jsonObjectIn(text: string): Record<string, unknown> {
  try {
    const value = JsonObject.safeParse(extractJson(text));
    return value.success ? value.data : {};
  } catch {
    return {};
  }
}

/**
 * The task a Phase 2 request is about: given outright as { task, input_data }, or read from
 * a prompt: the first registered resource it names (else the first kind word) sets the
 * execution type, and the first JSON object in it is the input.
 */
export function stage2RequestOf(taskInputData: string | Record<string, unknown>, registry: Registry): { task: PlannerTask; inputData: Record<string, unknown> } {
  if (typeof taskInputData !== 'string') {
    const task = PlannerTask.parse(taskInputData.task ?? {});
    const inputData = JsonObject.parse(taskInputData.input_data ?? {});
    return { task, inputData };
  }
  const named: Array<[string, PlannerTask['execution_type']]> = [
    ...registry.agents.map((a) => [a.id, 'agent'] as [string, string]),
    ...[...registry.tools, ...registry.functions].map((t) => [t.id, 'tool'] as [string, string]),
    ...registry.dsl_workflows.map((d) => [d.id, 'dsl'] as [string, string]),
    ...registry.llms.map((l) => [l.name, 'llm'] as [string, string]),
  ];
  const mentioned = named.filter(([key]) => taskInputData.includes(key)).sort((a, b) => taskInputData.indexOf(a[0]) - taskInputData.indexOf(b[0]))[0];
  const executionType = mentioned?.[1] ?? KIND_WORDS.find(([pattern]) => pattern.test(taskInputData))?.[1] ?? 'llm';
  const target = mentioned?.[0] ?? null;
  const task = PlannerTask.parse({
    task_id: 'controller-task',
    description: taskInputData.slice(0, 10_000),
    execution_type: executionType,
    agent_id: executionType === 'agent' ? target : null,
    tool_id: executionType === 'tool' ? target : null,
    function_id: executionType === 'llm' || executionType === 'dsl' ? target : null,
  });
  return { task, inputData: jsonObjectIn(taskInputData) };
}
