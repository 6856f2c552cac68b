import 'server-only';
import { z } from 'zod';
import { SubmitRequest } from '@/lib/api/gate-schemas';
import { GateApproveRequest, StartRunRequest } from '@/lib/api/run-schemas';
import { CreatePlanRequest, ImportRequest } from '@/lib/api/schemas';
import type { Role } from '@/lib/auth/roles';
import { RESOURCE_KINDS } from '@/lib/registry';
import { getApprovedPlan, getGateReviews, submitForReview } from '../approval/approval-service';
import type { Principal } from '../auth/principal';
import type { DatabaseHandle } from '../platform/db/client';
import { importPlanText } from '../plans/plan-interop';
import { createPlan } from '../plans/plan-service';
import { getRegistry } from '../registry/registry-service';
import { decideGate } from '../runs/run-control';
import { getRun } from '../runs/run-queries';
import { startRun } from '../runs/start-run';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, liveApprovals, waitForDecision } from './wait-for-decision';

// The tools Plangate offers over MCP. Each is a thin call of the service its REST route
// calls, with the REST request schemas (and so their limits) as its input: an agent gets
// what an API client gets, in its own protocol.

export interface ToolContext {
  handle: DatabaseHandle;
  principal: Principal;
  /** Where the client reached Plangate, for the links the answers carry. */
  origin: string;
  signal: AbortSignal;
  /** Tells the client how a long call goes; nothing when it asked for no progress. */
  progress(progress: number, total: number, message: string): Promise<void>;
}

export interface PlangateTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** The least role that may call it, as the REST route it mirrors. */
  role: Role;
  /** Reads only: changes nothing in Plangate. */
  readOnly: boolean;
  input: S;
  run(input: z.infer<S>, context: ToolContext): Promise<Record<string, unknown>>;
}

function tool<S extends z.ZodObject>(definition: PlangateTool<S>): PlangateTool {
  return definition as unknown as PlangateTool;
}

const PlanId = z.string().min(1).max(200).describe('The plan id, as submit_plan answers it');
const RunId = z.string().min(1).max(200).describe('The run id, as start_run answers it');

const reviewUrl = (origin: string, id: string) => `${origin}/plans/${encodeURIComponent(id)}/review`;
const runUrl = (origin: string, id: string) => `${origin}/runs/${encodeURIComponent(id)}`;

const SubmitPlanInput = z
  .strictObject({
    title: CreatePlanRequest.shape.title,
    plan: CreatePlanRequest.shape.plan.optional().describe("The plan as seed 000's TaskData ({ planned_tasks: [...] }); or send `content`"),
    job: CreatePlanRequest.shape.job,
    subgraphs: CreatePlanRequest.shape.subgraphs,
    content: ImportRequest.shape.content
      .optional()
      .describe('The plan as text in any format POST /api/plans/import reads (TaskData JSON, Planner Agent, Cortex XML, …); or send `plan`'),
    format: ImportRequest.shape.format,
    message: CreatePlanRequest.shape.message,
    reviewers: SubmitRequest.shape.reviewers.describe('Approvers (by username) asked to review it; each is told in their inbox'),
  })
  .superRefine((input, context) => {
    if ((input.plan === undefined) === (input.content === undefined)) {
      context.addIssue({ code: 'custom', path: ['plan'], message: 'Send the plan either as `plan` (TaskData) or as `content` (text in an import format), not both and not neither' });
    }
    if (input.content !== undefined && (input.job !== undefined || input.subgraphs !== undefined)) {
      context.addIssue({ code: 'custom', path: ['content'], message: '`job` and `subgraphs` go with `plan`; imported `content` carries its own' });
    }
    if (input.plan !== undefined && input.format !== undefined) {
      context.addIssue({ code: 'custom', path: ['format'], message: '`format` names the format of `content`; `plan` is always TaskData' });
    }
  });

export const PLANGATE_TOOLS: readonly PlangateTool[] = [
  tool({
    name: 'list_resources',
    title: 'List the registry',
    description: 'The registry of what tasks may run on: agents, tools, functions, LLMs and DSL workflows (all of them, or one `kind`). A task names one by its id (an LLM by its name).',
    role: 'viewer',
    readOnly: true,
    input: z.strictObject({ kind: z.enum(RESOURCE_KINDS).optional().describe('Only this kind of resource') }),
    async run({ kind }, { handle }) {
      const registry = await getRegistry(handle.db);
      return kind ? { [kind]: registry[kind] } : registry;
    },
  }),

  tool({
    name: 'submit_plan',
    title: 'Submit a plan for review',
    description:
      'Creates a plan (revision 1) and submits it for review in one step: both happen or neither does. A plan with validation errors is refused, naming them. Answers the plan id, revision, content hash and the review page a person approves it on.',
    role: 'editor',
    readOnly: false,
    input: SubmitPlanInput,
    async run(input, { handle, principal, origin }) {
      const actor = principal.username;
      return handle.db.transaction(async (tx) => {
        const created =
          input.content !== undefined
            ? await importPlanText(tx, { content: input.content, format: input.format, title: input.title }, actor)
            : await createPlan(tx, { title: input.title, plan: input.plan!, job: input.job, subgraphs: input.subgraphs, message: input.message }, actor);
        const submitted = await submitForReview(tx, created.id, { revision: created.revision, content_hash: created.content_hash, reviewers: input.reviewers }, principal);
        return { ...submitted, review_url: reviewUrl(origin, created.id), ...('format' in created ? { format: created.format } : {}) };
      });
    },
  }),

  tool({
    name: 'plan_status',
    title: 'Where a plan stands',
    description: "The plan's review status (draft, in_review, approved, changes_requested, rejected), its head revision and content hash, the approvals it needs, who was asked to review it and every decision so far, newest first.",
    role: 'viewer',
    readOnly: true,
    input: z.strictObject({ plan_id: PlanId }),
    async run({ plan_id }, { handle, origin }) {
      return { ...(await getGateReviews(handle.db, plan_id)), review_url: reviewUrl(origin, plan_id) };
    },
  }),

  tool({
    name: 'wait_for_decision',
    title: 'Wait for the review decision',
    description: `Waits while the plan is in review, up to timeout_seconds (at most ${MAX_WAIT_SECONDS}, default ${DEFAULT_WAIT_SECONDS}), and answers its status: \`decided\` is true once it is approved, rejected or has changes requested; \`timed_out\` when it is still in review (call again). Sends progress notifications while it waits when the call carries a progressToken.`,
    role: 'viewer',
    readOnly: true,
    input: z.strictObject({
      plan_id: PlanId,
      timeout_seconds: z
        .number()
        .int()
        .min(1)
        .max(MAX_WAIT_SECONDS, `timeout_seconds is at most ${MAX_WAIT_SECONDS}; call again to wait longer`)
        .default(DEFAULT_WAIT_SECONDS)
        .describe('How long to wait at most'),
    }),
    async run({ plan_id, timeout_seconds }, { handle, origin, signal, progress }) {
      const outcome = await waitForDecision(handle.db, plan_id, {
        timeoutMs: timeout_seconds * 1000,
        signal,
        onProgress: (waited, gate) =>
          progress(Math.floor(waited / 1000), timeout_seconds, `Revision ${gate.revision} is in review: ${liveApprovals(gate)} of ${gate.approvals_required} approvals`),
      });
      return { ...outcome, review_url: reviewUrl(origin, plan_id) };
    },
  }),

  tool({
    name: 'get_approved_plan',
    title: 'The approved plan (hand-off)',
    description:
      'What an executor may run, as GET /api/plans/{id}/approved gives it: the approved document, the registry resources it routes to, the content hash and the approvals, only while they all still hold. Refused (not_approved, stale, integrity) otherwise. The hash can be recomputed from the document (docs/formats.md).',
    role: 'viewer',
    readOnly: true,
    input: z.strictObject({ plan_id: PlanId }),
    async run({ plan_id }, { handle }) {
      return getApprovedPlan(handle.db, plan_id);
    },
  }),

  tool({
    name: 'start_run',
    title: 'Run the approved plan',
    description: 'Runs exactly the approved revision: `revision` and `content_hash` must be those the live approval covers (get_approved_plan gives them); otherwise nothing starts. Answers the run id, its state and the run page.',
    role: 'editor',
    readOnly: false,
    input: z.strictObject({ plan_id: PlanId, ...StartRunRequest.shape }),
    async run({ plan_id, ...claim }, { handle, principal, origin }) {
      const started = await startRun(handle, principal, plan_id, claim);
      return { ...started, run_url: runUrl(origin, started.run_id) };
    },
  }),

  tool({
    name: 'run_status',
    title: 'Where a run stands',
    description: 'A run as GET /api/runs/{id} gives it: its state, the approved revision and hash it runs, and every task with its state, attempts, input, output, error and gate decision.',
    role: 'viewer',
    readOnly: true,
    input: z.strictObject({ run_id: RunId }),
    async run({ run_id }, { handle, origin }) {
      return { ...(await getRun(handle.db, run_id)), run_url: runUrl(origin, run_id) };
    },
  }),

  tool({
    name: 'decide_gate',
    title: 'Decide a task waiting at its gate',
    description:
      "Approves or rejects a task of a run waiting at its gate (parameters.requires_approval). An approve may carry an edited `input`, sent instead of the resolved one. For a person's own token: a service account decides no gate, nor does whoever started the run (four-eyes).",
    role: 'approver',
    readOnly: false,
    input: z.strictObject({
      run_id: RunId,
      task_id: z.string().min(1).max(200).describe('The task waiting at its gate'),
      decision: z.enum(['approve', 'reject']),
      comment: GateApproveRequest.shape.comment,
      input: GateApproveRequest.shape.input,
    }),
    async run({ run_id, task_id, decision, comment, input }, { handle, principal, origin }) {
      const state = await decideGate(handle, principal, run_id, task_id, decision, comment, input === undefined ? undefined : { input });
      return { run_id, task_id, decision, state, run_url: runUrl(origin, run_id) };
    },
  }),
];
