import { z } from 'zod';
import { RUN_STATES, TASK_STATES } from '@/lib/runs/run-states';
import { ContentHash } from './gate-schemas';
import { DecisionSignature } from './passkey-schemas';

// Runs of approved plans over the REST API: starting one, reading it and its live events,
// and what people and executors send while it runs.

export const RunState = z.enum(RUN_STATES);
export const TaskState = z.enum(TASK_STATES);

export const StartRunRequest = z.strictObject({
  revision: z.number().int().min(1).describe('The approved revision to run'),
  content_hash: ContentHash.describe('Its content hash, as the approval and GET /api/plans/{id}/approved give it'),
  continue_from: z.string().min(1).max(100).optional().describe('A run that stopped for a replan: its succeeded tasks the new revision has unchanged are not run again, their outputs are used'),
});
export type StartRunRequest = z.infer<typeof StartRunRequest>;

export const StartRunResponse = z.object({ run_id: z.string(), state: RunState });

export const TaskRunView = z.object({
  task_id: z.string(),
  state: TaskState,
  generation: z.number().int().describe("1, then one more for each operator retry: the idempotency key is run:task:generation"),
  attempts: z.number().int().describe('Calls started in this generation'),
  input: z.unknown().describe('What the task was (or, at a gate, will be) sent, templates resolved'),
  output: z.unknown(),
  error: z.string().nullable(),
  error_kind: z
    .enum(['call', 'input', 'rejected', 'lost', 'integrity'])
    .nullable()
    .describe('Why it failed: the call failed, its input could not be made, a person rejected it at its gate, its job died in the queue, or the run failed its integrity check'),
  carried_from: z.string().nullable().describe('The run whose recorded output this task kept (a continuation)'),
  gate_decided_by: z.string().nullable(),
  gate: z
    .object({
      decision: z.enum(['approve', 'reject']),
      decided_by: z.string(),
      decided_at: z.string(),
      comment: z.string(),
      edited: z.boolean().describe('The approver changed the input at the gate; the task was sent theirs'),
      input_hash: z.string().nullable().describe('"sha256:" + hex SHA-256 of the RFC 8785 JSON of the input approved'),
      signature: DecisionSignature.optional().describe("The decider's passkey signature over { plan_id, revision, content_hash, resources_hash, decision, gate: { run_id, task_id, input_hash }, at }, when they signed (docs/security.md)"),
    })
    .nullable()
    .describe("The gate's decision for the task's current generation; null before one"),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type TaskRunView = z.infer<typeof TaskRunView>;

export const RunSummary = z.object({
  run_id: z.string(),
  plan_id: z.string(),
  revision: z.number().int(),
  content_hash: z.string(),
  resources_hash: z.string(),
  state: RunState,
  started_by: z.string(),
  parent_run_id: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  counts: z.record(z.string(), z.number().int()).describe('Tasks by state'),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const RunResponse = RunSummary.extend({
  continued_by: z.string().nullable().describe('The run that continues this one after a replan (a run is continued once)'),
  tasks: z.array(TaskRunView),
  task_data: z
    .object({ completed_tasks: z.array(z.string()), output_data: z.record(z.string(), z.unknown()) })
    .describe("Seed 000's TaskData fields as this run filled them: the tasks that succeeded, in plan order, and each one's output by task id. The approved revision itself never changes"),
});
export type RunResponse = z.infer<typeof RunResponse>;

export const RunPage = z.object({ runs: z.array(RunSummary), next_cursor: z.string().nullable() });

export const RunEvent = z.object({
  seq: z.number().int(),
  at: z.string(),
  kind: z.string(),
  task_id: z.string().nullable(),
  actor: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type RunEvent = z.infer<typeof RunEvent>;

export const RunStateResponse = z.object({ run_id: z.string(), state: RunState });

export const GateDecisionRequest = z.strictObject({
  comment: z.string().max(2000).default(''),
  signature: DecisionSignature.optional().describe('The decider\'s passkey signature over exactly this decision (docs/security.md); required while PLANGATE_REQUIRE_SIGNED_APPROVALS is on'),
});

export const GateApproveRequest = GateDecisionRequest.extend({
  input: z
    .unknown()
    .optional()
    .describe('The input to send instead of the resolved one (edit then approve); refused when the task sets parameters.gate_allows_edit: false'),
});

/** A gate the viewer may decide, with what a decision needs: the task, the input it will be sent, whether it may be edited. */
export const GateToDecide = z.object({
  run_id: z.string(),
  task_id: z.string(),
  plan_id: z.string(),
  plan_title: z.string(),
  revision: z.number().int(),
  started_by: z.string(),
  since: z.string(),
  description: z.string().describe("The task's description, as the approved revision has it"),
  input: z.unknown(),
  allow_edit: z.boolean().describe('False when the task sets parameters.gate_allows_edit: false'),
});
export type GateToDecide = z.infer<typeof GateToDecide>;

export const TaskResultReport = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('succeeded'), output: z.unknown() }),
  z.strictObject({ state: z.literal('failed'), error: z.string().min(1).max(2000) }),
]);
export type TaskResultReport = z.infer<typeof TaskResultReport>;
