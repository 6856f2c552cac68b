import { z } from 'zod';
import { FORMAT_IDS } from '@/lib/formats/format';
import { Job, PLAN_LIMITS, PlanDocument, PlannerTaskInput, Position, SubGraph, TaskData, TaskDataUpdate, ViewData } from '@/lib/plan';
import { ValidationResult } from '@/lib/validate';
import { PlanStatus } from '@/lib/approval/plan-status';

// Request and response shapes of the REST API. They are the single source for the
// route handlers' parsing and for the OpenAPI document.

// The gate's states are the domain's (lib/approval); the API re-exports them.
export { PlanStatus };

/** A revision number; PostgreSQL stores it as a 32-bit integer. */
export const RevisionNumber = z.number().int().min(1).max(2_147_483_647);

/** A revision number written in a URL, or null when it is not one. */
export function revisionFromText(text: string): number | null {
  const parsed = RevisionNumber.safeParse(/^[1-9]\d{0,9}$/.test(text) ? Number(text) : NaN);
  return parsed.success ? parsed.data : null;
}

const Title = z.string().trim().min(1, 'title must not be empty').max(200, 'title must be at most 200 characters');
const Message = z.string().max(2000, 'message must be at most 2,000 characters');

export const CreatePlanRequest = z.strictObject({
  title: Title,
  plan: TaskData,
  job: Job.optional(),
  subgraphs: z.array(SubGraph).optional(),
  view: ViewData.optional(),
  message: Message.optional(),
});
export type CreatePlanRequest = z.infer<typeof CreatePlanRequest>;

export const SavePlanRequest = z.strictObject({
  base_revision: RevisionNumber,
  plan: TaskDataUpdate.describe(
    'Fields left out keep the base revision\'s values (planned_tasks left out keeps its tasks); a task sent without creation_time or last_update_time keeps those of the base\'s task with its task_id.',
  ),
  job: Job.optional().describe('Kept from the base revision when omitted.'),
  subgraphs: z.array(SubGraph).optional().describe('Kept from the base revision when omitted.'),
  view: ViewData.optional().describe('Kept from the base revision when omitted.'),
  title: Title.optional(),
  message: Message.optional(),
});
export type SavePlanRequest = z.infer<typeof SavePlanRequest>;

const TaskIds = z.array(z.string().min(1)).max(PLAN_LIMITS.maxTasks);

/**
 * What changed since base_revision, and only that: the server's work and the new revision's
 * storage grow with the change, not with the plan. Removals apply first, then upserts.
 */
export const PatchPlanRequest = z.strictObject({
  base_revision: RevisionNumber,
  upsert_tasks: z
    .array(PlannerTaskInput.extend({ task_id: z.string().min(1, 'task_id must not be empty') }))
    .max(PLAN_LIMITS.maxTasks)
    .optional()
    .describe('Whole tasks, matched by task_id: a task of the base is replaced where it stands (timestamps not sent are kept), a new one is appended.'),
  remove_tasks: TaskIds.optional().describe('Ids of tasks of the base to remove.'),
  plan_fields: TaskDataUpdate.omit({ planned_tasks: true }).optional().describe("The plan's own fields (not its tasks) that changed."),
  job: Job.optional().describe('Kept from the base revision when omitted.'),
  subgraphs: z.array(SubGraph).optional().describe('Kept from the base revision when omitted.'),
  positions: z
    .record(z.string(), Position.nullable())
    .optional()
    .describe('Node positions that changed; null removes one. The rest are kept from the base revision.'),
  collapsed: z.array(z.string()).optional().describe('Collapsed subgraphs; kept from the base revision when omitted.'),
  title: Title.optional(),
  message: Message.optional(),
});
export type PatchPlanRequest = z.infer<typeof PatchPlanRequest>;

export const ValidateRequest = z.strictObject({ plan: TaskData });

export const ValidationResponse = ValidationResult;

export const PlanSummary = z.object({
  id: z.string(),
  title: z.string(),
  status: PlanStatus,
  revision: z.number().int(),
  content_hash: z.string(),
  updated_at: z.string(),
});

export const PlanListResponse = z.object({ plans: z.array(PlanSummary) });

export const PlanResponse = z.object({
  id: z.string(),
  title: z.string(),
  status: PlanStatus,
  revision: z.number().int(),
  head_revision: z.number().int(),
  content_hash: z.string(),
  plan: TaskData,
  job: Job,
  subgraphs: z.array(SubGraph),
  view: ViewData,
  author: z.string(),
  message: z.string(),
  created_at: z.string(),
});
export type PlanResponse = z.infer<typeof PlanResponse>;

/** The plan document inside a plan response, as the editor holds it. */
export function documentOf(response: Pick<PlanResponse, 'plan' | 'job' | 'subgraphs' | 'view'>): PlanDocument {
  return PlanDocument.parse({ plan: response.plan, job: response.job, subgraphs: response.subgraphs, view: response.view });
}

export const RevisionSummary = z.object({
  revision: z.number().int(),
  parent_revision: z.number().int().nullable(),
  content_hash: z.string(),
  author: z.string(),
  message: z.string(),
  /** Same content hash as its parent: only the layout changed, so reviews and approvals stand. */
  layout_only: z.boolean(),
  created_at: z.string(),
});

export const RevisionListResponse = z.object({ revisions: z.array(RevisionSummary) });

export const CreatedResponse = z.object({ id: z.string(), revision: z.literal(1), content_hash: z.string() });
export const SavedResponse = z.object({ revision: z.number().int(), content_hash: z.string(), layout_only: z.boolean() });

/**
 * The process answers (liveness); the database answered a probe ("ok", in `database_ms`) or
 * the probe is still queued behind other work ("busy", waiting `database_ms` so far). A
 * database that fails or stays stuck is a 503 (docs/operations.md, "Health").
 */
export const HealthResponse = z.object({
  ok: z.literal(true),
  database: z.enum(['pglite', 'postgres']),
  database_status: z.enum(['ok', 'busy']),
  database_ms: z.number().int().nonnegative(),
});

export const ErrorResponse = z.object({
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      current_revision: z.number().int().optional(),
    })
    .loose(),
});

export const ImportRequest = z.strictObject({
  content: z.string().min(1, 'content must not be empty'),
  format: z.enum(FORMAT_IDS).optional().describe('Detected from the content when omitted.'),
  title: Title.optional(),
});
export type ImportRequest = z.infer<typeof ImportRequest>;

export const ImportedResponse = z.object({
  id: z.string(),
  revision: z.literal(1),
  content_hash: z.string(),
  format: z.enum(FORMAT_IDS),
});
