import { z } from 'zod';
import { PlannerTask, SubGraph } from '@/lib/plan';
import { PlanPlannedBy, PlannedBy, Stage2Result } from '@/lib/planning/planning-types';
import { Role } from '@/lib/auth/roles';
import { ReplanProposal } from '@/lib/replan/replan-types';
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

const MonteCarlo = z.object({
  runs: z.number(),
  failure_probability: z.number(),
  makespan_ms: z.object({ p50: z.number(), p95: z.number(), min: z.number(), max: z.number() }),
  cost_usd: z.object({ p50: z.number(), p95: z.number() }),
  failed_runs: z.number(),
  skipped_mean: z.number(),
});

const DryRunSummary = z.object({
  workers: z.number().int(),
  limits: z.record(z.string(), z.number()),
  seed: z.number(),
  makespan_ms: z.number(),
  lower_bound_ms: z.number(),
  critical_path: z.array(z.string()),
  total_work_ms: z.number(),
  total_cost_usd: z.number(),
  peak_parallelism: z.number(),
  utilisation: z.number(),
  worker_utilisation: z.array(z.number()),
  assumptions: z.array(z.string()),
  findings: z.array(Analysis),
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

export const StoredDryRun = z.object({
  id: z.number().int(),
  revision: z.number().int(),
  content_hash: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  result: DryRunSummary.extend({ tasks: z.array(TaskRun) }),
  previous: z
    .object({ id: z.number().int(), revision: z.number().int(), created_at: z.string(), summary: DryRunSummary.partial() })
    .nullable(),
});

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

export const ReplanProposalResponse = ReplanProposal.extend({
  diff: z.array(Analysis),
  applied_revision: z.number().int().nullable(),
  applied_at: z.string().nullable(),
});

export const AppliedReplan = z.object({
  proposal_id: z.string(),
  revision: z.number().int(),
  content_hash: z.string(),
  applied: z.array(z.string()),
  plan: PlanResponse,
});

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

