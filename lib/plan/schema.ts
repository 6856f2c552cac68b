import { z } from 'zod';
import { PLAN_LIMITS, bytesOverLimit, formatBytes, jsonDeeperThan } from './limits';
import { nowTimestamp } from './timestamps';

// Field names and defaults follow seed 000's PlannerTask / TaskData dataclasses so a
// Python planner can read what we store with `TaskData.from_dict`.

export const EXECUTION_TYPES = ['agent', 'tool', 'llm', 'dsl'] as const;
export const ExecutionType = z.enum(EXECUTION_TYPES);
export type ExecutionType = z.infer<typeof ExecutionType>;

export const JsonObject = z.record(z.string(), z.unknown()).refine((value) => !jsonDeeperThan(value, PLAN_LIMITS.maxJsonDepth), {
  message: `Nested more than ${PLAN_LIMITS.maxJsonDepth} levels deep`,
});

const Timestamp = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'Expected an ISO 8601 date-time' });

// Python's `datetime.utcnow().isoformat()` form, so seed 000's dataclasses read it back unchanged.
const nowIso = nowTimestamp;
const newId = () => crypto.randomUUID();

function limitedText(field: string, limit: number) {
  return z.string().superRefine((text, ctx) => {
    const bytes = bytesOverLimit(text, limit);
    if (bytes !== null) {
      ctx.addIssue({
        code: 'custom',
        message: `${field} is ${formatBytes(bytes)}; the limit is ${formatBytes(limit)}`,
      });
    }
  });
}

/**
 * Seed 000 types `estimate_data` as `Any`: any JSON value is kept as given. The dry run
 * reads the keys it knows (`latency_ms`, `cost_usd`, `tokens`; see lib/simulate) and
 * reports the rest.
 */
export const EstimateData = z.json().refine((value) => !jsonDeeperThan(value, PLAN_LIMITS.maxJsonDepth), {
  message: `Nested more than ${PLAN_LIMITS.maxJsonDepth} levels deep`,
});
export type EstimateData = z.infer<typeof EstimateData>;

// `execution_type` is kept exactly as given (seed 000's `l2_task` stays `l2_task`);
// `executionKind` derives the kind Plangate works with.
export const PlannerTask = z.strictObject({
  task_id: z.string().min(1, 'task_id must not be empty').default(newId),
  main_task_id: z.string().nullable().default(''),
  description: limitedText('description', PLAN_LIMITS.maxDescriptionBytes).nullable().default(''),
  execution_type: z.string().nullable().default(''),
  dependencies: z.array(z.string()).default(() => []),
  tool_id: z.string().nullable().default(null),
  function_id: z.string().nullable().default(null),
  agent_id: z.string().nullable().default(null),
  parameters: JsonObject.default(() => ({})),
  arguments: JsonObject.default(() => ({})),
  instructions: z.string().nullable().default(null),
  convertor_code: limitedText('convertor_code', PLAN_LIMITS.maxConvertorCodeBytes).nullable().default(null),
  estimate_data: EstimateData.nullable().default(null),
  mark_replan: z.boolean().default(false),
  status: z.string().default('pending'),
  output: JsonObject.default(() => ({})),
  creation_time: Timestamp.default(nowIso),
  last_update_time: Timestamp.default(nowIso),
});

export type PlannerTask = z.infer<typeof PlannerTask>;
/** What a client may send for a task: every field but the id is optional. */
export type PlannerTaskInput = z.input<typeof PlannerTask>;

export const TaskData = z.strictObject({
  task_id: z.string().min(1).default(newId),
  task_input_data: JsonObject.default(() => ({})),
  completed_tasks: z.array(z.string()).default(() => []),
  output_data: JsonObject.default(() => ({})),
  creation_time: Timestamp.default(nowIso),
  update_time: Timestamp.default(nowIso),
  planned_tasks: z
    .array(PlannerTask)
    .max(PLAN_LIMITS.maxTasks, `A plan may hold at most ${PLAN_LIMITS.maxTasks.toLocaleString('en')} tasks`)
    .default(() => []),
  status: z.string().default('pending'),
  original_job_data: JsonObject.nullable().default(null),
});
export type TaskData = z.infer<typeof TaskData>;
export type TaskDataInput = z.input<typeof TaskData>;

export const SubGraph = z.strictObject({
  subgraph_id: z.string().min(1),
  task_ids: z.array(z.string()),
  depends_on: z.array(z.string()).default(() => []),
});
export type SubGraph = z.infer<typeof SubGraph>;

/** The job the plan was made for (seed 000's Stage 1 planner inputs). */
export const Job = z.strictObject({
  job_goal: JsonObject.default(() => ({})),
  job_objectives: JsonObject.default(() => ({})),
  job_steerability_data: JsonObject.default(() => ({})),
  task_description: z.string().default(''),
});
export type Job = z.infer<typeof Job>;
export type JobInput = z.input<typeof Job>;

export const Position = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

/** How the plan is drawn. Kept apart from the tasks and never part of the content hash. */
export const ViewData = z.strictObject({
  positions: z.record(z.string(), Position).default(() => ({})),
  collapsed: z.array(z.string()).default(() => []),
});
export type ViewData = z.infer<typeof ViewData>;

/** One revision's content: the tasks, their job and grouping, and how they are drawn. */
export const PlanDocument = z.strictObject({
  plan: TaskData,
  job: Job.default(() => Job.parse({})),
  subgraphs: z.array(SubGraph).default(() => []),
  view: ViewData.default(() => ViewData.parse({})),
});
export type PlanDocument = z.infer<typeof PlanDocument>;
export type PlanDocumentInput = z.input<typeof PlanDocument>;
