import { z } from 'zod';
import { PLAN_LIMITS, bytesOverLimit, formatBytes, jsonDeeperThan } from './limits';

// Field names and defaults follow seed 000's PlannerTask / TaskData dataclasses so a
// Python planner can read what we store with `TaskData.from_dict`.

export const EXECUTION_TYPES = ['agent', 'tool', 'llm', 'dsl'] as const;
export const ExecutionType = z.enum(EXECUTION_TYPES);
export type ExecutionType = z.infer<typeof ExecutionType>;

// Spellings other planners use for our four types. Seed 000 routes `l2_task` by
// `parameters.sub_type`, whose tool spelling is "tools"; its replanning example says "tool_call".
const EXECUTION_TYPE_ALIASES: Record<string, ExecutionType> = {
  agent: 'agent',
  agents: 'agent',
  tool: 'tool',
  tools: 'tool',
  tool_call: 'tool',
  function: 'tool',
  llm: 'llm',
  dsl: 'dsl',
  workflow: 'dsl',
};

/**
 * The canonical execution type for a raw value, or the raw value unchanged when it is
 * not one we know (validation reports it; the plan is still stored as a draft).
 */
export function normaliseExecutionType(raw: string, parameters: Record<string, unknown>): string {
  const key = raw.trim().toLowerCase();
  if (key === 'l2_task') {
    const subType = parameters.sub_type;
    return typeof subType === 'string' ? (EXECUTION_TYPE_ALIASES[subType.trim().toLowerCase()] ?? raw) : raw;
  }
  return EXECUTION_TYPE_ALIASES[key] ?? raw;
}

export function isExecutionType(value: string): value is ExecutionType {
  return (EXECUTION_TYPES as readonly string[]).includes(value);
}

export const JsonObject = z.record(z.string(), z.unknown()).refine((value) => !jsonDeeperThan(value, PLAN_LIMITS.maxJsonDepth), {
  message: `Nested more than ${PLAN_LIMITS.maxJsonDepth} levels deep`,
});

const Timestamp = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'Expected an ISO 8601 date-time' });

const nowIso = () => new Date().toISOString();
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

export const EstimateData = z.strictObject({
  latency_ms: z.number().nonnegative().optional(),
  cost_usd: z.number().nonnegative().optional(),
  tokens: z.number().int().nonnegative().optional(),
});
export type EstimateData = z.infer<typeof EstimateData>;

const PlannerTaskShape = z.strictObject({
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

export const PlannerTask = PlannerTaskShape.transform((task) => ({
  ...task,
  execution_type: normaliseExecutionType(task.execution_type ?? '', task.parameters),
}));
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
