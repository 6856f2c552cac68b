import { z } from 'zod';
import type { Role } from '@/lib/auth/roles';
import { FORMAT_IDS } from '@/lib/formats/format';
import { Phase1Payload, Phase2Payload } from '@/lib/planning/behavior-controller-protocol';
import { RESOURCE_KINDS, Registry } from '@/lib/registry';
import { ApplyReplanRequest, ReplanRequest } from '@/lib/replan/replan-types';
import { DryRunOptions } from '@/lib/simulate/dry-run';
import { GenerateRequest, OptimizeRequest, Stage2Request } from './request-schemas';
import * as comments from './comment-schemas';
import * as gate from './gate-schemas';
import * as inbox from './inbox-schemas';
import * as list from './list-schemas';
import * as mcp from './mcp-schemas';
import * as ops from './operation-schemas';
import * as passkey from './passkey-schemas';
import * as presence from './presence-schemas';
import * as api from './schemas';
import * as hooks from './webhook-schemas';
import * as run from './run-schemas';

// Every REST endpoint, declared once: what it is called, who may call it, what it takes and
// what it answers. The OpenAPI document (lib/api/openapi.ts), the authorization sweep
// (e2e/authorization.spec.ts) and the test that matches app/api/**/route.ts against this
// table all read it, so a route cannot exist without being documented and swept.

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Reply {
  description: string;
  /** The JSON body; absent for an empty answer (204). */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface RouteSpec {
  operationId: string;
  method: Method;
  /** In OpenAPI form: `/api/plans/{id}`. */
  path: string;
  /** The least role that may call it; null for the public endpoints. */
  role: Role | null;
  summary: string;
  body?: z.ZodType;
  /** What a bad body is called in the error message (default "request body"). */
  bodyName?: string;
  /** A body whose every field is optional may be left out altogether. */
  bodyOptional?: boolean;
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** Success answers by status. */
  responses: Record<number, Reply>;
  /** Error statuses besides 401 and 403 (which every non-public route can answer). */
  errors: number[];
  /** Error statuses whose body is not ErrorResponse (the Behavior Controller's protocol). */
  errorSchema?: z.ZodType;
  /**
   * The handler reads the body itself: it verifies a signature over its exact bytes before
   * parsing it with `body` (an executor's signed result report).
   */
  signedBody?: boolean;
  /**
   * The handler gets the body's text (its type and size checked) instead of the parsed
   * body: a compute worker parses it with `body`, because a whole plan takes the event
   * loop too long to parse (lib/server/platform/compute).
   */
  bodyInWorker?: boolean;
}

const PlanId = z.string().describe('A plan id');
const plan = z.object({ id: PlanId });
const revisionText = z.string().regex(/^[1-9]\d{0,9}$/).describe('A revision number (1 or more)');
const revisionQuery = z.coerce.number().int().min(1).max(2_147_483_647).optional();
const ok = (description: string, schema?: z.ZodType, contentType?: string): Reply => ({ description, schema, contentType });

/** Builds the table with its keys as operationIds, so the two cannot disagree. */
function table<T extends Record<string, Omit<RouteSpec, 'operationId'>>>(specs: T): { [K in keyof T]: T[K] & { operationId: K } } {
  return Object.fromEntries(Object.entries(specs).map(([operationId, spec]) => [operationId, { ...spec, operationId }])) as never;
}

export const routes = table({
  getHealth: { method: 'get', path: '/api/health', role: null, summary: 'Liveness, and the database kind and status', responses: { 200: ok('OK', api.HealthResponse) }, errors: [503] },
  getOpenApi: { method: 'get', path: '/api/openapi.json', role: null, summary: 'This document', responses: { 200: ok('OpenAPI 3.1', z.record(z.string(), z.unknown())) }, errors: [] },

  listPlans: {
    method: 'get', path: '/api/plans', role: 'viewer', summary: 'One page of plans, most recently updated first unless `sort`/`order` say otherwise; filtered by `status`, `author` (creator) and `q`',
    query: list.PlanListQuery, responses: { 200: ok('Plans', list.PlanListPage) }, errors: [400],
  },
  createPlan: {
    method: 'post', path: '/api/plans', role: 'editor', summary: 'Create a plan (revision 1)',
    body: api.CreatePlanRequest, bodyInWorker: true, responses: { 201: ok('Created', api.CreatedResponse) }, errors: [400, 413, 415, 503],
  },
  getPlan: { method: 'get', path: '/api/plans/{id}', role: 'viewer', summary: 'The head revision of a plan; sends an ETag and answers 304 to a matching If-None-Match', params: plan, responses: { 200: ok('Plan', api.PlanResponse) }, errors: [404] },
  savePlan: {
    method: 'put', path: '/api/plans/{id}', role: 'editor', summary: 'Save a new revision on top of base_revision',
    params: plan, body: api.SavePlanRequest, responses: { 200: ok('Saved', api.SavedResponse) }, errors: [400, 404, 409, 413, 415],
  },
  patchPlan: {
    method: 'patch', path: '/api/plans/{id}', role: 'editor',
    summary: 'Save a new revision on top of base_revision from what changed: whole tasks added or replaced (by task_id), tasks removed, changed positions, and any of job, subgraphs, collapsed and the plan\'s own fields. The tasks not named are kept as they are, unread; the answer and its rules are those of PUT',
    params: plan, body: api.PatchPlanRequest, responses: { 200: ok('Saved', api.SavedResponse) }, errors: [400, 404, 409, 413, 415, 422],
  },
  listRevisions: {
    method: 'get', path: '/api/plans/{id}/revisions', role: 'viewer', summary: 'One page of revisions, oldest first',
    params: plan, query: list.PageQuery, responses: { 200: ok('Revisions', list.RevisionPage) }, errors: [400, 404],
  },
  getRevision: {
    method: 'get', path: '/api/plans/{id}/revisions/{rev}', role: 'viewer', summary: 'One revision of a plan; sends an ETag and answers 304 to a matching If-None-Match',
    params: z.object({ id: PlanId, rev: revisionText }), responses: { 200: ok('Plan', api.PlanResponse) }, errors: [400, 404],
  },
  heartbeat: {
    method: 'post', path: '/api/plans/{id}/presence', role: 'viewer',
    summary: "An open tab's heartbeat (every few seconds): records the tab (`session_id`, the revision it shows, whether it has unsaved edits) and answers with the plan's head, its latest gate events and who else has it open. A tab silent for 15 seconds is gone",
    params: plan, body: presence.Heartbeat, responses: { 200: ok('Live state', presence.LiveStateResponse) }, errors: [400, 404, 409, 415],
  },
  leavePresence: {
    method: 'delete', path: '/api/plans/{id}/presence', role: 'viewer', summary: "A tab that closed: others stop seeing it at once (only the caller's own tab)",
    params: plan, body: presence.LeaveRequest, responses: { 204: ok('Left') }, errors: [400, 415],
  },
  validatePlan: { method: 'post', path: '/api/plans/{id}/validate', role: 'viewer', summary: 'Validate the head revision', params: plan, responses: { 200: ok('Result', api.ValidationResponse) }, errors: [404, 503] },
  validateDocument: {
    method: 'post', path: '/api/validate', role: 'viewer', summary: 'Validate a plan without storing it',
    body: api.ValidateRequest, bodyInWorker: true, responses: { 200: ok('Result', api.ValidationResponse) }, errors: [400, 413, 415, 503],
  },
  importPlan: {
    method: 'post', path: '/api/plans/import', role: 'editor', summary: 'Import a plan from any supported format (detected when format is omitted)',
    body: api.ImportRequest, responses: { 201: ok('Imported', api.ImportedResponse) }, errors: [400, 413, 415, 503],
  },
  exportPlan: {
    method: 'get', path: '/api/plans/{id}/export', role: 'viewer',
    summary: 'The plan as text in the chosen format, as a file download; X-Plangate-Dropped lists what the format cannot carry',
    params: plan, query: z.object({
      format: z
        .enum(FORMAT_IDS, { error: (issue) => `Unknown export format "${String(issue.input).slice(0, 40)}"; use one of ${FORMAT_IDS.join(', ')}` })
        .default('taskdata'),
      revision: revisionQuery,
    }),
    responses: { 200: ok('The plan file, in the format\'s media type', z.string(), 'text/plain') }, errors: [400, 404, 422],
  },
  submitPlan: {
    method: 'post', path: '/api/plans/{id}/submit', role: 'editor',
    summary: 'Submit the head revision for review. The body may name the revision and hash being submitted, and `reviewers`: approvers (by username, not the submitter) asked to review it, told in their inbox',
    params: plan, body: gate.SubmitRequest, bodyOptional: true, responses: { 200: ok('In review', gate.GateTransition) }, errors: [400, 404, 409, 422],
  },
  approvePlan: {
    method: 'post', path: '/api/plans/{id}/approve', role: 'approver', summary: 'Approve exactly this revision and hash (not its author or submitter)',
    params: plan, body: gate.DecisionRequest, responses: { 200: ok('Decided', gate.DecisionResponse) }, errors: [400, 404, 409, 422],
  },
  requestChanges: {
    method: 'post', path: '/api/plans/{id}/request-changes', role: 'approver', summary: 'Send the revision back to its editors with a comment',
    params: plan, body: gate.DecisionRequest, responses: { 200: ok('Decided', gate.DecisionResponse) }, errors: [400, 404, 409, 422],
  },
  rejectPlan: {
    method: 'post', path: '/api/plans/{id}/reject', role: 'approver', summary: 'Reject the revision; a new revision is needed to submit again',
    params: plan, body: gate.DecisionRequest, responses: { 200: ok('Decided', gate.DecisionResponse) }, errors: [400, 404, 409, 422],
  },
  getApprovedPlan: {
    method: 'get', path: '/api/plans/{id}/approved', role: 'viewer',
    summary:
      'For executors: the head revision\'s document ({ plan, job, subgraphs }) and the registry resources it routes to, only while they carry the required approvals and are unchanged since. `content_hash` is "sha256:" + hex SHA-256 of the RFC 8785 canonical JSON of `{ hash_version: 2, job, plan, subgraphs }` with each task of `plan.planned_tasks` replaced by the same hash of that task (`hash_version` 2; under 1, of `document` itself); `resources.hash` the same over `{ targets, definitions }`. 409 `not_approved`, `stale` (`reason: "stale"` for a newer revision, `"registry_changed"` with `resources` for a changed resource) or `integrity` (the stored body or the audit chain does not verify)',
    params: plan, responses: { 200: ok('Approved plan', gate.ApprovedResponse) }, errors: [404, 409],
  },
  getReviews: { method: 'get', path: '/api/plans/{id}/reviews', role: 'viewer', summary: 'Review status and every decision, newest first', params: plan, responses: { 200: ok('Gate', gate.GateResponse) }, errors: [404] },
  getAudit: {
    method: 'get', path: '/api/plans/{id}/audit', role: 'viewer', summary: "One page of the plan's hash-chained audit events, oldest first",
    params: plan, query: list.PageQuery, responses: { 200: ok('Events', list.AuditPage) }, errors: [400, 404],
  },
  listComments: {
    method: 'get', path: '/api/plans/{id}/comments', role: 'viewer',
    summary: 'Comment threads shown on a revision (default the head): every thread started on it or before, oldest first, each with its comments; `on_removed_task` marks a thread whose task is not in that revision',
    params: plan, query: z.object({ revision: revisionQuery }), responses: { 200: ok('Threads', comments.CommentListResponse) }, errors: [400, 404],
  },
  createComment: {
    method: 'post', path: '/api/plans/{id}/comments', role: 'editor',
    summary:
      "Start a thread on a task (`task_id`) or on the plan (`task_id` null), or reply in one (`thread_id`); `revision` is the revision on screen and must hold the task. Audited, sent as `comment.created`, and put in the inbox of @mentioned users and of the plan's authors, submitter and thread participants",
    params: plan, body: comments.CreateCommentRequest, responses: { 201: ok('Created', comments.CreatedComment) }, errors: [400, 404, 415, 422, 429],
  },
  resolveThread: {
    method: 'post', path: '/api/plans/{id}/comments/{commentId}/resolve', role: 'editor', summary: 'Resolve the thread the comment belongs to; 409 when it is resolved already',
    params: z.object({ id: PlanId, commentId: z.string() }), responses: { 200: ok('The thread', comments.Thread) }, errors: [404, 409],
  },
  reopenThread: {
    method: 'post', path: '/api/plans/{id}/comments/{commentId}/reopen', role: 'editor', summary: 'Reopen the thread the comment belongs to; 409 when it is open already',
    params: z.object({ id: PlanId, commentId: z.string() }), responses: { 200: ok('The thread', comments.Thread) }, errors: [404, 409],
  },
  reviewQueue: {
    method: 'get', path: '/api/reviews', role: 'viewer', summary: 'The review queue: plans in review, oldest first, one page at a time',
    query: list.PageQuery, responses: { 200: ok('Plans in review', list.ReviewQueuePage) }, errors: [400],
  },
  getInbox: {
    method: 'get', path: '/api/inbox', role: 'viewer',
    summary: "The caller's inbox, newest first: reviews requested, decisions, comments, mentions, voided approvals; `before` pages on from `next_cursor`",
    query: inbox.InboxQuery, responses: { 200: ok('Inbox', inbox.InboxResponse) }, errors: [400],
  },
  markInboxRead: {
    method: 'post', path: '/api/inbox/read', role: 'viewer', summary: "Mark the caller's items read: `{ ids }` (others' ids are ignored) or `{ all: true }`",
    body: inbox.MarkReadRequest, responses: { 200: ok('Marked', inbox.MarkReadResponse) }, errors: [400, 415],
  },
  getMe: { method: 'get', path: '/api/me', role: 'viewer', summary: 'Who the caller is', responses: { 200: ok('The caller', ops.Caller) }, errors: [] },
  listUsers: { method: 'get', path: '/api/users', role: 'admin', summary: 'Every user', responses: { 200: ok('Users', gate.UserListResponse) }, errors: [] },
  createUser: {
    method: 'post', path: '/api/users', role: 'admin', summary: 'Create a person (with a password) or a service account (service: true, no password)',
    body: gate.CreateUserRequest, responses: { 201: ok('Created', gate.UserResponse) }, errors: [400, 409, 415],
  },
  setUserRole: {
    method: 'patch', path: '/api/users/{username}', role: 'admin', summary: "Change a user's role",
    params: z.object({ username: z.string() }), body: gate.SetRoleRequest, responses: { 200: ok('Updated', gate.UserResponse) }, errors: [400, 404, 415],
  },
  createToken: {
    method: 'post', path: '/api/tokens', role: 'viewer',
    summary: 'Create an API token for yourself, or (admin) for the named service account; never for another person (403); shown once; expires after expires_in_days (default 90)',
    body: gate.CreateTokenRequest, bodyOptional: true, responses: { 201: ok('Token', gate.TokenResponse) }, errors: [400, 404, 415],
  },
  revokeToken: {
    method: 'delete', path: '/api/tokens/{tokenId}', role: 'viewer', summary: 'Revoke a token now (its owner, or an admin)',
    params: z.object({ tokenId: z.string() }), responses: { 200: ok('Revoked', ops.RevokedToken) }, errors: [404],
  },
  listPublicKeys: {
    method: 'get', path: '/api/keys', role: 'viewer',
    summary: 'Every passkey people sign decisions with, revoked ones too (with when): `kid` (the credential id), its owner, the key as a JWK and as COSE, its algorithm and RP id. Verify a signed approval or gate decision with them (docs/security.md, "Passkey-signed decisions")',
    responses: { 200: ok('Public keys', passkey.PublicKeysResponse) }, errors: [],
  },
  listWebhooks: { method: 'get', path: '/api/webhooks', role: 'admin', summary: 'The outgoing webhooks, newest first; secrets are never listed', responses: { 200: ok('Webhooks', hooks.WebhookListResponse) }, errors: [] },
  createWebhook: {
    method: 'post', path: '/api/webhooks', role: 'admin',
    summary: 'Add an outgoing webhook: an http(s) URL without credentials and the events it receives. The answer carries the signing secret, shown once',
    body: hooks.CreateWebhookRequest, responses: { 201: ok('Created, with its secret', hooks.CreatedWebhook) }, errors: [400, 415],
  },
  deleteWebhook: {
    method: 'delete', path: '/api/webhooks/{id}', role: 'admin', summary: 'Delete a webhook and its delivery log',
    params: z.object({ id: z.string() }), responses: { 204: ok('Deleted') }, errors: [404],
  },
  listWebhookDeliveries: {
    method: 'get', path: '/api/webhooks/{id}/deliveries', role: 'admin', summary: "The webhook's newest 100 deliveries, each attempt with its status code or error",
    params: z.object({ id: z.string() }), responses: { 200: ok('Deliveries', hooks.WebhookDeliveriesResponse) }, errors: [404],
  },
  generatePlan: {
    method: 'post', path: '/api/plans/generate', role: 'editor',
    summary: 'Stage 1: a new draft plan from a job. With Accept: application/x-ndjson, progress lines stream first (200), then one `{ type: "done", … }` or `{ type: "error", error }` line',
    body: GenerateRequest,
    responses: { 201: ok('Created', ops.GeneratedPlan), 200: ok('Progress lines, then the outcome (Accept: application/x-ndjson)', z.string(), 'application/x-ndjson') },
    errors: [400, 415, 502, 503],
  },
  runStage2: {
    method: 'post', path: '/api/plans/{id}/stage2', role: 'editor',
    summary: 'Stage 2 for the named tasks: { uid, input_data, plan? } each, checked and stored in parameters.stage2 as a new revision',
    params: plan, body: Stage2Request, responses: { 200: ok('Stored', ops.Stage2Response) }, errors: [400, 404, 409, 415, 502, 503],
  },
  processPhase1Task: {
    method: 'post', path: '/api/behavior-controller/process-phase-1-task', role: 'editor',
    summary: "Seed 000's Behavior Controller Stage 1 call, served by Plangate: answers { success: true, data: PlannerTask[] }, or { success: false, error } with a 4xx/5xx status",
    body: Phase1Payload, responses: { 200: ok('The planned tasks', ops.Phase1Answer) }, errors: [400, 413, 415, 502, 503], errorSchema: ops.BehaviorControllerError,
  },
  processPhase2Task: {
    method: 'post', path: '/api/behavior-controller/process-phase-2-task', role: 'editor',
    summary: "Seed 000's Behavior Controller Stage 2 call: answers { success: true, data: { uid, input_data, plan? } }, or { success: false, error } with a 4xx/5xx status",
    body: Phase2Payload, responses: { 200: ok('The Stage 2 result', ops.Phase2Answer) }, errors: [400, 413, 415, 422, 502, 503], errorSchema: ops.BehaviorControllerError,
  },
  runDryRun: {
    method: 'post', path: '/api/plans/{id}/simulate', role: 'editor',
    summary:
      'Dry-run the head revision: list scheduling on `workers` with per-type `limits`, mock data flow, convertor code in a sandbox, `fail_task_ids` and Monte Carlo failures (`failure_probability`, `runs`, `seed`). Stored for the review; the answer includes the previous run for comparison',
    params: plan, body: DryRunOptions, responses: { 201: ok('The stored dry run', ops.StoredDryRun) }, errors: [400, 404, 415, 422, 503],
  },
  getLatestDryRun: { method: 'get', path: '/api/plans/{id}/simulate', role: 'viewer', summary: 'The latest dry run of the head revision', params: plan, responses: { 200: ok('A stored dry run', ops.StoredDryRun) }, errors: [404] },
  optimizePlan: {
    method: 'post', path: '/api/plans/{id}/optimize', role: 'editor',
    summary:
      'Propose a SubGraph grouping of the head revision. `rule`: chains that gain nothing from separate dispatch are merged, never lengthening the dry run at `workers`. `llm` (needs LLM_BASE_URL and LLM_MODEL, else 400): the model groups the tasks by meaning; its grouping is checked and used if the invariants hold, else the rule-based grouping is returned with the reason in `llm.reason`. Save the plan with the returned subgraphs to apply it',
    params: plan, body: OptimizeRequest.partial(), bodyOptional: true, responses: { 200: ok('The proposed grouping', ops.OptimizeResponse) }, errors: [400, 404, 415, 422, 502, 503],
  },
  proposeReplan: {
    method: 'post', path: '/api/plans/{id}/replan', role: 'editor',
    summary:
      "Replan selected tasks of the head revision (seed 000's SubGraphRePlanner). `task_ids` (else the tasks marked `mark_replan`) each get a replacement: new tasks with `main_task_id` = the replaced id, taking over its dependencies and dependents. Stored as a proposal with a per-task `diff`; the plan does not change until it is applied",
    params: plan, body: ReplanRequest, responses: { 201: ok('The proposal', ops.ReplanProposalResponse) }, errors: [400, 404, 409, 415, 502, 503],
  },
  getReplanProposal: {
    method: 'get', path: '/api/plans/{id}/replan/{proposalId}', role: 'viewer',
    summary: 'A replan proposal, with its diff against the revision it was made for and the revision it was applied as, if any',
    params: z.object({ id: PlanId, proposalId: z.string() }), responses: { 200: ok('The proposal', ops.ReplanProposalResponse) }, errors: [404],
  },
  applyReplanProposal: {
    method: 'post', path: '/api/plans/{id}/replan/{proposalId}/apply', role: 'editor',
    summary:
      'Apply the accepted replacements of a proposal as one new revision: `accepted_task_ids` names the replaced tasks whose replacement is accepted. The plan returns to draft and its approvals are void. 409 when applied already or the plan has moved on; 422 when the accepted part cannot be applied',
    params: z.object({ id: PlanId, proposalId: z.string() }), body: ApplyReplanRequest, responses: { 200: ok('Applied', ops.AppliedReplan) }, errors: [400, 404, 409, 415, 422],
  },
  startRun: {
    method: 'post', path: '/api/plans/{id}/runs', role: 'editor',
    summary:
      'Run exactly the approved revision: `revision` and `content_hash` must be the ones the live approval covers (as GET /api/plans/{id}/approved gives them). 201 with the run id; 409 `not_approved`, `stale` or `integrity` and nothing starts. With `continue_from`, the tasks that run succeeded and this revision has unchanged keep their outputs and do not run again',
    params: plan, body: run.StartRunRequest, responses: { 201: ok('Started', run.StartRunResponse) }, errors: [400, 404, 409, 415],
  },
  listRuns: {
    method: 'get', path: '/api/plans/{id}/runs', role: 'viewer', summary: "One page of the plan's runs, newest first",
    params: plan, query: list.PageQuery, responses: { 200: ok('Runs', run.RunPage) }, errors: [400, 404],
  },
  getRun: {
    method: 'get', path: '/api/runs/{run_id}', role: 'viewer', summary: 'A run: its state, the approved revision and hash it runs, and every task with its state, attempts, input, output and error',
    params: z.object({ run_id: z.string() }), responses: { 200: ok('Run', run.RunResponse) }, errors: [404],
  },
  getRunEvents: {
    method: 'get', path: '/api/runs/{run_id}/events', role: 'viewer',
    summary:
      "The run's events as Server-Sent Events (`id` is the event's seq, `event: run_event`, `data` a RunEvent), from `after` (or Last-Event-ID) on, live until the run finishes. Any instance serves any run",
    params: z.object({ run_id: z.string() }), query: z.strictObject({ after: z.coerce.number().int().min(0).optional() }),
    responses: { 200: ok('Event stream', z.string(), 'text/event-stream') }, errors: [400, 404],
  },
  cancelRun: {
    method: 'post', path: '/api/runs/{run_id}/cancel', role: 'editor', summary: 'Cancel a run: nothing more starts and calls in flight are aborted',
    params: z.object({ run_id: z.string() }), responses: { 200: ok('Cancelled', run.RunStateResponse) }, errors: [404, 409],
  },
  pauseRun: {
    method: 'post', path: '/api/runs/{run_id}/pause', role: 'editor', summary: 'Pause a run: tasks not yet started wait; calls under way finish',
    params: z.object({ run_id: z.string() }), responses: { 200: ok('Paused', run.RunStateResponse) }, errors: [404, 409],
  },
  resumeRun: {
    method: 'post', path: '/api/runs/{run_id}/resume', role: 'editor', summary: 'Resume a paused run',
    params: z.object({ run_id: z.string() }), responses: { 200: ok('Resumed', run.RunStateResponse) }, errors: [404, 409],
  },
  retryRunTask: {
    method: 'post', path: '/api/runs/{run_id}/tasks/{task_id}/retry', role: 'editor', summary: 'Run a failed or cancelled task again, with the tasks it blocked',
    params: z.object({ run_id: z.string(), task_id: z.string() }), responses: { 200: ok('Retried', run.RunStateResponse) }, errors: [404, 409],
  },
  approveGate: {
    method: 'post', path: '/api/runs/{run_id}/gates/{task_id}/approve', role: 'approver',
    summary: 'Let a task waiting at its gate (`parameters.requires_approval`) run, with the input it shows or, given `input`, with that one (recorded with its hash). Not by whoever started the run (four-eyes); each gate is decided on its own',
    params: z.object({ run_id: z.string(), task_id: z.string() }), body: run.GateApproveRequest, bodyOptional: true, responses: { 200: ok('Decided', run.RunStateResponse) }, errors: [400, 404, 409, 415, 422],
  },
  rejectGate: {
    method: 'post', path: '/api/runs/{run_id}/gates/{task_id}/reject', role: 'approver',
    summary: 'Refuse a task waiting at its gate: it fails, its dependents stay blocked and the run needs a replan',
    params: z.object({ run_id: z.string(), task_id: z.string() }), body: run.GateDecisionRequest, bodyOptional: true, responses: { 200: ok('Decided', run.RunStateResponse) }, errors: [400, 404, 409, 415, 422],
  },
  reportTaskResult: {
    method: 'post', path: '/api/runs/{run_id}/tasks/{task_id}/result', role: null,
    summary:
      'For an executor that answered a webhook with 202: the task\'s result, once, for the attempt in flight. Headers `X-Plangate-Timestamp` (Unix seconds, within 5 minutes), `X-Plangate-Attempt` (as sent) and `X-Plangate-Signature: sha256=<hex HMAC-SHA256 of "POST\\n<path of the result URL>\\n<attempt>\\n<timestamp>\\n<body>">` keyed with the resource\'s secret (docs/security.md, "Signed results"). 401 for a missing, wrong or stale signature, and for a run or task that does not exist; 409 for a second result or another attempt; 413 over 1 MB',
    params: z.object({ run_id: z.string(), task_id: z.string() }), body: run.TaskResultReport, signedBody: true, responses: { 200: ok('Recorded', run.RunStateResponse) }, errors: [400, 401, 409, 413, 415],
  },
  callMcp: {
    method: 'post', path: '/api/mcp', role: 'viewer',
    summary:
      'Plangate as an MCP server (Streamable HTTP, stateless): JSON-RPC messages in (`Accept: application/json, text/event-stream`), the answer to a request as Server-Sent Events, progress notifications first; 202 with an empty body when only notifications were sent. Tools: list_resources, submit_plan, plan_status, wait_for_decision, get_approved_plan, start_run, run_status, decide_gate, each needing its own least role (a tool error names it). GET answers 405: there is no standalone stream',
    body: mcp.McpRequest, bodyName: 'MCP message',
    responses: {
      200: ok('The JSON-RPC answer as Server-Sent Events', z.string(), 'text/event-stream'),
      202: ok('Accepted: the body held only notifications or responses, so the answer is empty', z.string().max(0), 'text/plain'),
    },
    errors: [400, 406, 413, 415], errorSchema: mcp.McpErrorResponse,
  },
  getRegistry: { method: 'get', path: '/api/registry', role: 'viewer', summary: 'The resource registry (agents, tools, functions, LLMs, DSL workflows); also its JSON export', responses: { 200: ok('Registry', Registry) }, errors: [] },
  replaceRegistry: {
    method: 'put', path: '/api/registry', role: 'editor', summary: 'Import a registry, replacing the current one',
    body: Registry, bodyName: 'registry', responses: { 200: ok('Registry', Registry) }, errors: [400, 413, 415],
  },
  putResource: {
    method: 'put', path: '/api/registry/{kind}/{key}', role: 'editor', summary: 'Create or replace one resource; key is its id (its name for an LLM)',
    params: z.object({ kind: z.enum(RESOURCE_KINDS), key: z.string() }), body: ops.RegistryResource, bodyName: 'resource', responses: { 200: ok('The resource', ops.RegistryResource) }, errors: [400, 404, 415],
  },
  deleteResource: {
    method: 'delete', path: '/api/registry/{kind}/{key}', role: 'editor', summary: 'Delete one resource',
    params: z.object({ kind: z.enum(RESOURCE_KINDS), key: z.string() }), responses: { 204: ok('Deleted') }, errors: [404],
  },
});

export type Routes = typeof routes;
export type OperationId = keyof Routes;
export const ROUTE_LIST: readonly RouteSpec[] = Object.values(routes);
