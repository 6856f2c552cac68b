import { z } from 'zod';
import { PLAN_LIMITS, bytesOverLimit, formatBytes, jsonDeeperThan } from './limits';
import { EXECUTION_TYPES } from './execution-type-names';
import { nowTimestamp } from './timestamps';

// Field names and defaults follow seed 000's PlannerTask / TaskData dataclasses so a
// Python planner can read what we store with `TaskData.from_dict`.
//
// Three schemas per shape, one job each:
// - Stored… (StoredPlanDocument): the canonical stored document, the one that is hashed.
//   Every field is required and nothing has a default, so parsing a stored body can never
//   mint an id or read the clock and change what the hash covers.
// - …Input (PlanDocumentInput): what a client may send. Seed 000's constant defaults; an
//   absent id or timestamp stays absent until completeDocument (./document-defaults) fills
//   it once, explicitly, with the caller's clock and id source.
// - PlannerTask, TaskData, PlanDocument: documents made in-process (importers, planners,
//   tests): the input schema plus a fresh id and the current time where they are missing.
//   Their output type is the stored shape.

export { EXECUTION_TYPES };
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

const TaskId = z.string().min(1, 'task_id must not be empty');
const Description = limitedText('description', PLAN_LIMITS.maxDescriptionBytes);
const ConvertorCode = limitedText('convertor_code', PLAN_LIMITS.maxConvertorCodeBytes);

// `execution_type` is kept exactly as given (seed 000's `l2_task` stays `l2_task`);
// `executionKind` derives the kind Plangate works with.
export const StoredPlannerTask = z.strictObject({
  task_id: TaskId,
  main_task_id: z.string().nullable(),
  description: Description.nullable(),
  execution_type: z.string().nullable(),
  dependencies: z.array(z.string()),
  tool_id: z.string().nullable(),
  function_id: z.string().nullable(),
  agent_id: z.string().nullable(),
  parameters: JsonObject,
  arguments: JsonObject,
  instructions: z.string().nullable(),
  convertor_code: ConvertorCode.nullable(),
  estimate_data: EstimateData.nullable(),
  mark_replan: z.boolean(),
  status: z.string(),
  output: JsonObject,
  creation_time: Timestamp,
  last_update_time: Timestamp,
});

/** Seed 000's constant task defaults; the id and the timestamps have none (see completeDocument). */
const plannerTaskInputFields = {
  task_id: TaskId.optional(),
  main_task_id: z.string().nullable().default(''),
  description: Description.nullable().default(''),
  execution_type: z.string().nullable().default(''),
  dependencies: z.array(z.string()).default(() => []),
  tool_id: z.string().nullable().default(null),
  function_id: z.string().nullable().default(null),
  agent_id: z.string().nullable().default(null),
  parameters: JsonObject.default(() => ({})),
  arguments: JsonObject.default(() => ({})),
  instructions: z.string().nullable().default(null),
  convertor_code: ConvertorCode.nullable().default(null),
  estimate_data: EstimateData.nullable().default(null),
  mark_replan: z.boolean().default(false),
  status: z.string().default('pending'),
  output: JsonObject.default(() => ({})),
  creation_time: Timestamp.optional(),
  last_update_time: Timestamp.optional(),
};

/** A task as a client may send it: every field optional. */
export const PlannerTaskInput = z.strictObject(plannerTaskInputFields);
/** What a client may send for a task: every field is optional. */
export type PlannerTaskInput = z.input<typeof PlannerTaskInput>;

/** A task made in-process: missing id and timestamps are fresh. */
export const PlannerTask = z.strictObject({
  ...plannerTaskInputFields,
  task_id: TaskId.default(newId),
  creation_time: Timestamp.default(nowIso),
  last_update_time: Timestamp.default(nowIso),
});
export type PlannerTask = z.infer<typeof StoredPlannerTask>;

const PlannedTasks = <T extends z.ZodType>(task: T) =>
  z.array(task).max(PLAN_LIMITS.maxTasks, `A plan may hold at most ${PLAN_LIMITS.maxTasks.toLocaleString('en')} tasks`);

export const StoredTaskData = z.strictObject({
  task_id: z.string().min(1),
  task_input_data: JsonObject,
  completed_tasks: z.array(z.string()),
  output_data: JsonObject,
  creation_time: Timestamp,
  update_time: Timestamp,
  planned_tasks: PlannedTasks(StoredPlannerTask),
  status: z.string(),
  original_job_data: JsonObject.nullable(),
});

const taskDataInputFields = {
  task_id: z.string().min(1).optional(),
  task_input_data: JsonObject.default(() => ({})),
  completed_tasks: z.array(z.string()).default(() => []),
  output_data: JsonObject.default(() => ({})),
  creation_time: Timestamp.optional(),
  update_time: Timestamp.optional(),
  planned_tasks: PlannedTasks(PlannerTaskInput).default(() => []),
  status: z.string().default('pending'),
  original_job_data: JsonObject.nullable().default(null),
};

export const TaskDataInput = z.strictObject(taskDataInputFields);
export type TaskDataInput = z.input<typeof TaskDataInput>;

/**
 * The plan a save sends on top of a base revision: a field it leaves out keeps the base's
 * value, so none has a default here (TaskDataInput's would overwrite the base, and
 * `plan: {}` would empty it). Tasks are sent whole, as PlannerTaskInput; their ids and
 * timestamps may be absent until the save fills them (see savePlan).
 */
export const TaskDataUpdate = StoredTaskData.omit({ planned_tasks: true })
  .partial()
  .extend({ planned_tasks: PlannedTasks(PlannerTaskInput).optional() });
export type TaskDataUpdate = z.output<typeof TaskDataUpdate>;

/** A plan made in-process: missing ids and timestamps are fresh. */
export const TaskData = z.strictObject({
  ...taskDataInputFields,
  task_id: z.string().min(1).default(newId),
  creation_time: Timestamp.default(nowIso),
  update_time: Timestamp.default(nowIso),
  planned_tasks: PlannedTasks(PlannerTask).default(() => []),
});
export type TaskData = z.infer<typeof StoredTaskData>;

export const StoredSubGraph = z.strictObject({
  subgraph_id: z.string().min(1),
  task_ids: z.array(z.string()),
  depends_on: z.array(z.string()),
});

export const SubGraph = z.strictObject({
  subgraph_id: z.string().min(1),
  task_ids: z.array(z.string()),
  depends_on: z.array(z.string()).default(() => []),
});
export type SubGraph = z.infer<typeof StoredSubGraph>;

export const StoredJob = z.strictObject({
  job_goal: JsonObject,
  job_objectives: JsonObject,
  job_steerability_data: JsonObject,
  task_description: z.string(),
});

/** The job the plan was made for (seed 000's Stage 1 planner inputs). */
export const Job = z.strictObject({
  job_goal: JsonObject.default(() => ({})),
  job_objectives: JsonObject.default(() => ({})),
  job_steerability_data: JsonObject.default(() => ({})),
  task_description: z.string().default(''),
});
export type Job = z.infer<typeof StoredJob>;
export type JobInput = z.input<typeof Job>;

export const Position = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

export const StoredViewData = z.strictObject({
  positions: z.record(z.string(), Position),
  collapsed: z.array(z.string()),
});

/** How the plan is drawn. Kept apart from the tasks and never part of the content hash. */
export const ViewData = z.strictObject({
  positions: z.record(z.string(), Position).default(() => ({})),
  collapsed: z.array(z.string()).default(() => []),
});
export type ViewData = z.infer<typeof StoredViewData>;

/** One revision's content as stored and hashed: the tasks, their job and grouping, and how they are drawn. */
export const StoredPlanDocument = z.strictObject({
  plan: StoredTaskData,
  job: StoredJob,
  subgraphs: z.array(StoredSubGraph),
  view: StoredViewData,
});
export type PlanDocument = z.infer<typeof StoredPlanDocument>;

/** What a sent or in-process document may leave out: seed 000's constant defaults. */
const documentParts = {
  job: Job.default(() => Job.parse({})),
  subgraphs: z.array(SubGraph).default(() => []),
  view: ViewData.default(() => ViewData.parse({})),
};

/** A document as a client sends it; completeDocument turns it into a StoredPlanDocument. */
export const PlanDocumentInput = z.strictObject({ plan: TaskDataInput, ...documentParts });
export type PlanDocumentInput = z.input<typeof PlanDocumentInput>;

/** A document made in-process: missing ids and timestamps are fresh. */
export const PlanDocument = z.strictObject({ plan: TaskData, ...documentParts });
