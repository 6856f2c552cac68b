import { z } from 'zod';
import { JsonObject, type PlannerTask } from '@/lib/plan';
import type { Registry } from '@/lib/registry';

// What every planning backend (rule-based, OpenAI-compatible LLM, external Behavior
// Controller) takes and gives, so the services and the UI never ask which one ran.

// Job fields go into the prompt and into the plan; 64 kB each is far beyond any real job.
const MAX_JOB_FIELD_CHARS = 64 * 1024;
const JobField = JsonObject.refine((value) => JSON.stringify(value).length <= MAX_JOB_FIELD_CHARS, 'At most 64 kB of JSON').default(() => ({}));

export const Stage1Input = z.strictObject({
  job_goal: JobField,
  job_objectives: JobField,
  job_steerability_data: JobField,
  task_description: z.string().trim().min(1, 'Describe the task to plan').max(20_000),
  custom_notes: z.string().max(20_000).default(''),
  /** The date temporal phrases ("last week") resolve against; today when omitted. */
  today: z.iso.date().optional(),
});
export type Stage1Input = z.infer<typeof Stage1Input>;
export type Stage1InputRaw = z.input<typeof Stage1Input>;

export const Stage2Result = z.object({
  uid: z.string().min(1),
  input_data: JsonObject,
  /** The planner's reasoning, kept with the result. */
  plan: z.union([z.string().max(20_000), JsonObject]).optional(),
});
export type Stage2Result = z.infer<typeof Stage2Result>;

export const BACKEND_IDS = ['rule-based', 'llm', 'behavior-controller'] as const;
export type BackendId = (typeof BACKEND_IDS)[number];

/** Who made a plan or a Stage 2 input: shown on every generated plan. */
export const PlannedBy = z.object({ backend: z.enum(BACKEND_IDS), model: z.string() });
export type PlannedBy = z.infer<typeof PlannedBy>;

/** Stage 1's record on a generated plan, in `original_job_data.planned_by`. */
export const PlanPlannedBy = PlannedBy.extend({ label: z.string(), notes: z.array(z.string()), at: z.string() });
export type PlanPlannedBy = z.infer<typeof PlanPlannedBy>;

/** A Stage 2 answer as stored on its task, in `parameters.stage2`. */
export const StoredStage2 = Stage2Result.extend({ planned_by: PlannedBy.optional() });
export type StoredStage2 = z.infer<typeof StoredStage2>;

/** The Stage 2 answer a task carries, or null (none yet, or edited into another shape). */
export function storedStage2(task: Pick<PlannerTask, 'parameters'>): StoredStage2 | null {
  const parsed = StoredStage2.safeParse(task.parameters.stage2);
  return parsed.success ? parsed.data : null;
}

/** Who planned a generated plan, from its original job data, or null. */
export function planPlannedBy(originalJobData: Record<string, unknown> | null): PlanPlannedBy | null {
  const parsed = PlanPlannedBy.safeParse(originalJobData?.planned_by);
  return parsed.success ? parsed.data : null;
}

export type Progress = (message: string) => void;

export interface PlanningBackend extends PlannedBy {
  /** One line for the UI, honest about what the backend is. */
  label: string;
  stage1(input: Stage1Input, registry: Registry, progress: Progress): Promise<{ tasks: PlannerTask[]; notes: string[] }>;
  stage2(task: PlannerTask, inputData: Record<string, unknown>, registry: Registry): Promise<Stage2Result>;
}
