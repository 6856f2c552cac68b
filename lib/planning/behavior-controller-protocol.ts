import { z } from 'zod';
import { extractJson } from '@/lib/llm/extract-json';
import { EXECUTION_TYPE_DESCRIPTORS, EXECUTION_TYPE_LIST, JsonObject, PlannerTask, executionKind, isExecutionType, type ExecutionType } from '@/lib/plan';
import { resourceKey, type Registry, type Resource } from '@/lib/registry';
import { offeredInPrompt, offeredRegistry } from './phase2-offer';
import { candidatesFor } from './stage2-check';
import type { Stage1InputRaw } from './planning-types';

// Seed 000's Behavior Controller payloads, as Plangate accepts them when it serves as the
// controller for an existing Agents Planning System.

const PhaseData = z.object({
  task_input_data: z.union([z.string().min(1).max(50_000, 'At most 50,000 characters'), JsonObject]),
  n_history_samples: z.number().int().min(0).default(0),
  // Seed 000's client sends `llm_data: None` when it has no model settings: null reads as {}.
  llm_data: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((value) => value ?? {}),
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

/** A task as seed 000's `PlannerTask(**task)` accepts it: its dataclass fields, nothing else. */
export type SeedPlannerTask = Omit<PlannerTask, 'estimate_data' | 'mark_replan'>;

/**
 * Phase 1's answer as seed 000's client loads it. `estimate_data = None` and
 * `mark_replan = False` carry no type annotation in the seed's dataclass, so they are class
 * attributes, not fields, and `PlannerTask(**task)` refuses them: they are left out here
 * (Plangate stores them; a plan read through the REST API has them). Every task carries
 * `parameters.sub_type` in the seed's spelling (agent | tools | llm | dsl), which its
 * PlanAndExecuteL2 routes by, and `execution_type` is "l2_task", the only type it takes.
 */
export function phase1Answer(tasks: readonly PlannerTask[]): SeedPlannerTask[] {
  return tasks.map(({ estimate_data: _estimate, mark_replan: _replan, ...task }) => {
    const kind = executionKind(task);
    if (!isExecutionType(kind)) {
      throw new Error(`task "${task.task_id.slice(0, 100)}" has execution_type "${String(task.execution_type).slice(0, 100)}", which no seed 000 sub_type routes`);
    }
    // PlanAndExecuteL2 takes only "l2_task" tasks and routes them by sub_type; seed 000's
    // own loop skips every other execution_type, so that is what a phase-1 answer says.
    return { ...task, execution_type: 'l2_task', parameters: { ...task.parameters, sub_type: EXECUTION_TYPE_DESCRIPTORS[kind].seedSubType } };
  });
}

const KIND_WORDS: Array<[RegExp, ExecutionType]> = [
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
 * The task a Phase 2 request is about, and the resources it offers: given outright as
 * { task, input_data, candidates? }, or read from a prompt: the first registered resource
 * it names (else the first kind word) sets the execution type, the first JSON object in it
 * is the input, and the resources it names or lists are the offer (see phase2-offer).
 */
export function stage2RequestOf(
  taskInputData: string | Record<string, unknown>,
  registry: Registry,
): { task: PlannerTask; inputData: Record<string, unknown>; offered: string[] } {
  if (typeof taskInputData !== 'string') {
    const task = PlannerTask.parse(taskInputData.task ?? {});
    const inputData = JsonObject.parse(taskInputData.input_data ?? {});
    const offered = Candidates.parse(taskInputData.candidates ?? []);
    return { task, inputData, offered };
  }
  const offered = offeredInPrompt(taskInputData, registry);
  const named = EXECUTION_TYPE_LIST.flatMap(({ type, registryKinds }) =>
    registryKinds.flatMap((kind): Resource[] => registry[kind]).map((resource) => [resourceKey(resource), type] as const),
  );
  const mentioned = named.filter(([key]) => offered.includes(key)).sort((a, b) => taskInputData.indexOf(a[0]) - taskInputData.indexOf(b[0]))[0];
  const executionType = mentioned?.[1] ?? KIND_WORDS.find(([pattern]) => pattern.test(taskInputData))?.[1] ?? 'llm';
  const target = mentioned?.[0] ?? null;
  const task = PlannerTask.parse({
    task_id: 'controller-task',
    description: taskInputData.slice(0, 10_000),
    execution_type: executionType,
    [EXECUTION_TYPE_DESCRIPTORS[executionType].targetField]: target,
  });
  return { task, inputData: jsonObjectIn(taskInputData), offered };
}

const Candidates = z.array(z.string().min(1).max(200)).max(1000);

/**
 * The registry a Phase 2 answer may choose from: the offered resources when the request
 * offers any (refused when none of them is a registered resource of the task's kind, as
 * Plangate could then only pick one the caller did not offer), else the whole registry.
 */
export function phase2Registry(task: PlannerTask, offered: readonly string[], registry: Registry): Registry {
  if (offered.length === 0) return registry;
  const narrowed = offeredRegistry(registry, offered);
  if (candidatesFor(task, narrowed).size === 0) {
    const shown = offered.slice(0, 10).map((o) => `"${o.slice(0, 100)}"`).join(', ');
    throw new Phase2OfferError(`None of the resources the request offers (${shown}${offered.length > 10 ? ', …' : ''}) is a registered ${executionKind(task) || 'resource'} Plangate can choose`);
  }
  return narrowed;
}

/** The caller offered nothing Plangate may choose: its request, not the planner, is at fault. */
export class Phase2OfferError extends Error {}
