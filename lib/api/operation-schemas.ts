import { z } from 'zod';
import { PlannerTask, StoredPlannerTask, SubGraph } from '@/lib/plan';
import { PlanPlannedBy, PlannedBy, Stage2Result } from '@/lib/planning/planning-types';
import { Role } from '@/lib/auth/roles';
import { ReplanProposal } from '@/lib/replan/replan-types';
import { FINDING_CODES } from '@/lib/simulate/data-flow';
import { PlanResponse, SavedResponse } from './schemas';

// Response shapes of the operations whose answers were described in prose only: the route
// table (lib/api/routes.ts) gives every success response a schema, so a generated client
// is typed end to end. Deep analysis structures (findings, reports, diffs) are typed at
// their top level and left open below it: they grow with the analysis and are read by
// people, not by automation.

const Analysis = z.record(z.string(), z.unknown());

export const Caller = z.object({
  id: z.string(),
  username: z.string(),
  role: Role,
  via: z.enum(['session', 'token']),
  service: z.boolean(),
});

export const RevokedToken = z.object({ id: z.string(), revoked_at: z.string() });

export const ReviewQueueItem = z.object({
  id: z.string(),
  title: z.string(),
  revision: z.number().int(),
  content_hash: z.string(),
  submitted_by: z.string().nullable(),
  updated_at: z.string(),
});
export const ReviewQueueResponse = z.object({ plans: z.array(ReviewQueueItem) });

export const GeneratedPlan = z.object({ id: z.string(), revision: z.literal(1), content_hash: z.string(), planned_by: PlanPlannedBy });

export const Stage2TaskResult = Stage2Result.extend({ task_id: z.string(), planned_by: PlannedBy });
/** The saved revision (as PUT /api/plans/{id} answers) and each task's result. */
export const Stage2Response = SavedResponse.extend({ results: z.array(Stage2TaskResult) });

const Percentiles = z.object({ p50: z.number(), p95: z.number() });

const MonteCarlo = z.object({
  runs: z.number(),
  failure_probability: z.number(),
  /** How many tasks had a failure probability of their own. */
  failure_probability_overrides: z.number().int().optional(),
  /** Runs in which no task failed (absent from dry runs stored before it was reported). */
  completed_runs: z.number().int().optional(),
  /** completed_runs / runs. */
  completion_rate: z.number().optional(),
  /** Over the completed runs only; null when none completed. */
  makespan_ms: Percentiles.extend({ min: z.number(), max: z.number() }).nullable(),
  /** Over the completed runs only; null when none completed or a task's cost is unknown. */
  cost_usd: Percentiles.nullable(),
  failed_runs: z.number(),
  /** When the first task failed, over the failed runs; null when none failed. */
  time_to_first_failure_ms: Percentiles.nullable().optional(),
  skipped_mean: z.number(),
});

const Finding = z.object({ task_id: z.string(), code: z.enum(FINDING_CODES), message: z.string() });

/** A dry run without its task list: what a comparison with the previous run needs. */
export const DryRunSummary = z.object({
  workers: z.number().int(),
  limits: z.record(z.string(), z.number().optional()),
  seed: z.number(),
  makespan_ms: z.number(),
  /** Counts only the tasks that run in this schedule, so it is at most makespan_ms. */
  lower_bound_ms: z.number(),
  /** The whole plan's bound, failures ignored (absent from dry runs stored before it was reported). */
  plan_lower_bound_ms: z.number().optional(),
  critical_path: z.array(z.string()),
  total_work_ms: z.number(),
  /** Null when a task that runs has no cost estimate: unknown, never $0 (a cost_unknown finding names them). */
  total_cost_usd: z.number().nullable(),
  peak_parallelism: z.number(),
  utilisation: z.number(),
  worker_utilisation: z.array(z.number()),
  assumptions: z.array(z.string()),
  findings: z.array(Finding),
  failed_task_ids: z.array(z.string()),
  skipped_task_ids: z.array(z.string()),
  monte_carlo: MonteCarlo.nullable(),
});

export const TaskRun = z.object({
  task_id: z.string(),
  type: z.string(),
  worker: z.number().int().nullable(),
  start_ms: z.number(),
  end_ms: z.number(),
  status: z.enum(['ran', 'failed', 'skipped']),
  resolved_input: z.unknown(),
  mock_output: z.unknown(),
});

/** A stored dry run as the API, the server actions and the dry-run pages see it. */
export const StoredDryRun = z.object({
  id: z.number().int(),
  /** The plan's nth dry run (1 for its first), counted over all its revisions. */
  number: z.number().int().min(1),
  revision: z.number().int(),
  content_hash: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  result: DryRunSummary.extend({ tasks: z.array(TaskRun) }),
  /** The plan's dry run before this one (any revision), for comparison. */
  previous: z
    .object({
      id: z.number().int(),
      number: z.number().int().min(1),
      revision: z.number().int(),
      created_at: z.string(),
      /** Both runs had the same workers, limits, failures, probabilities, runs and seed: only then are their figures compared. */
      same_settings: z.boolean(),
      summary: DryRunSummary.partial(),
    })
    .nullable(),
});
export type DryRunSummary = z.infer<typeof DryRunSummary>;
export type StoredDryRun = z.infer<typeof StoredDryRun>;

export const OptimizeResponse = z.object({
  revision: z.number().int(),
  content_hash: z.string(),
  strategy: z.enum(['rule', 'llm']),
  subgraphs: z.array(SubGraph),
  report: Analysis,
  llm: z
    .object({ accepted: z.boolean(), reason: z.string().nullable(), model: z.string(), proposed: z.array(SubGraph).nullable() })
    .optional(),
});

const Edge = z.object({ from: z.string(), to: z.string() });

/** What the operator reviews for one replacement (lib/replan/replan-diff): fields and edges before and after. */
const ReplacementDiff = z.object({
  replaces: z.string(),
  before: StoredPlannerTask,
  after: z.array(StoredPlannerTask),
  fields: z.array(z.object({ field: StoredPlannerTask.keyof(), before: z.unknown(), after: z.unknown() })),
  edges_added: z.array(Edge),
  edges_removed: z.array(Edge),
  /** Why this replacement cannot be applied on its own, or null. */
  error: z.string().nullable(),
});

/** A proposal as the API and the server action return it. */
export const ReplanProposalResponse = ReplanProposal.extend({
  diff: z.array(ReplacementDiff),
  /** The revision applying it made, once applied. */
  applied_revision: z.number().int().nullable(),
  applied_at: z.string().nullable(),
});
export type ReplanProposalResponse = z.infer<typeof ReplanProposalResponse>;

/** What applying a proposal returns: the new revision. */
export const AppliedReplan = z.object({
  proposal_id: z.string(),
  revision: z.number().int(),
  content_hash: z.string(),
  /** The replaced tasks whose replacements are now in the plan. */
  applied: z.array(z.string()),
  plan: PlanResponse,
});
export type AppliedReplan = z.infer<typeof AppliedReplan>;

/** One registry resource as stored (agents, tools, functions, LLMs and DSL workflows differ in fields). */
export const RegistryResource = Analysis;

/**
 * Seed 000's Behavior Controller protocol: every answer, good or bad (authentication
 * aside), is `{ success: true, data }` or `{ success: false, error }`.
 */
export const BehaviorControllerError = z.object({ success: z.literal(false), error: z.string() });
export const Phase1Answer = z.object({
  success: z.literal(true),
  data: z.array(PlannerTask.omit({ estimate_data: true, mark_replan: true })),
});
export const Phase2Answer = z.object({ success: z.literal(true), data: Stage2Result });

