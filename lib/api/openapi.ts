import { z } from 'zod';
import { FORMAT_IDS } from '@/lib/formats/format';
import { Phase1Payload, Phase2Payload } from '@/lib/planning/behavior-controller-protocol';
import { RESOURCE_KINDS, Registry } from '@/lib/registry';
import { ApplyReplanRequest, ReplanRequest } from '@/lib/replan/replan-types';
import { DryRunOptions } from '@/lib/simulate/dry-run';
import { OptimizeRequest } from '@/lib/server/optimize/optimize-service';
import { GenerateRequest, Stage2Request } from '@/lib/server/planning/planning-service';
import * as gate from './gate-schemas';
import * as api from './schemas';
import * as hooks from './webhook-schemas';

// The OpenAPI 3.1 document is generated from the same zod schemas the handlers parse
// with, so the published contract cannot disagree with what the server accepts.

type Io = 'input' | 'output';

function schema(type: z.ZodType, io: Io) {
  return z.toJSONSchema(type, { io, unrepresentable: 'any', target: 'draft-2020-12' });
}

function body(type: z.ZodType) {
  return { required: true, content: { 'application/json': { schema: schema(type, 'input') } } };
}

function reply(description: string, type?: z.ZodType) {
  return type ? { description, content: { 'application/json': { schema: schema(type, 'output') } } } : { description };
}

// Every endpoint but health and this document needs a caller, so 401 and 403 are always possible.
const errors = (statuses: number[]) =>
  Object.fromEntries(
    [...new Set([...statuses, 401, 403])].sort().map((status) => [
      String(status),
      reply(
        {
          400: 'Bad input: malformed JSON, wrong types or unknown fields; `details` lists each path',
          404: 'No such plan or revision',
          401: 'No valid session or API token (`Authorization: Bearer <token>`)',
          403: 'The caller\'s role does not allow this, the request came from a foreign Origin, (four-eyes) the approver wrote or submitted a revision since the last approval, or a service account tried to decide',
          409: 'A conflict: a stale base revision (`current_revision`), a stale review (`code: "stale"`), the wrong review state, or (hand-off) `code: "not_approved"` / `"stale"` / `"integrity"`',
          413: 'The body or plan is over the size limit',
          415: 'The body is not JSON',
          422: 'The plan cannot be expressed in the requested format, or has validation errors that block review; `details` lists them',
        }[status] ?? 'Error',
        api.ErrorResponse,
      ),
    ]),
  );

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const revParam = { name: 'rev', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const proposalParam = { name: 'proposalId', in: 'path', required: true, schema: { type: 'string' } };

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plangate API',
      version: '0.1.0',
      description:
        'Plans are seed 000 TaskData documents. Saving needs the base revision; a stale base is a 409 conflict, never an overwrite.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token from POST /api/tokens, the CLI, or PLANGATE_ADMIN_TOKEN' },
        session: { type: 'apiKey', in: 'cookie', name: '__Secure-better-auth.session_token', description: 'The browser session after sign-in' },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths: {
      '/api/health': { get: { summary: 'Liveness and database kind', security: [], responses: { 200: reply('OK', api.HealthResponse) } } },
      '/api/plans': {
        get: { summary: 'List plans, newest first', responses: { 200: reply('Plans', api.PlanListResponse) } },
        post: {
          summary: 'Create a plan (revision 1)',
          requestBody: body(api.CreatePlanRequest),
          responses: { 201: reply('Created', api.CreatedResponse), ...errors([400, 413, 415]) },
        },
      },
      '/api/plans/{id}': {
        parameters: [idParam],
        get: { summary: 'The head revision of a plan', responses: { 200: reply('Plan', api.PlanResponse), ...errors([404]) } },
        put: {
          summary: 'Save a new revision on top of base_revision',
          requestBody: body(api.SavePlanRequest),
          responses: { 200: reply('Saved', api.SavedResponse), ...errors([400, 404, 409, 413, 415]) },
        },
      },
      '/api/plans/{id}/revisions': {
        parameters: [idParam],
        get: { summary: 'Every revision, oldest first', responses: { 200: reply('Revisions', api.RevisionListResponse), ...errors([404]) } },
      },
      '/api/plans/{id}/revisions/{rev}': {
        parameters: [idParam, revParam],
        get: { summary: 'One revision of a plan', responses: { 200: reply('Plan', api.PlanResponse), ...errors([400, 404]) } },
      },
      '/api/plans/{id}/validate': {
        parameters: [idParam],
        post: { summary: 'Validate the head revision', responses: { 200: reply('Result', api.ValidationResponse), ...errors([404]) } },
      },
      '/api/validate': {
        post: {
          summary: 'Validate a plan without storing it',
          requestBody: body(api.ValidateRequest),
          responses: { 200: reply('Result', api.ValidationResponse), ...errors([400, 413, 415]) },
        },
      },
      '/api/plans/import': {
        post: {
          summary: 'Import a plan from any supported format (detected when format is omitted)',
          requestBody: body(api.ImportRequest),
          responses: { 201: reply('Imported', api.ImportedResponse), ...errors([400, 413, 415]) },
        },
      },
      '/api/plans/{id}/export': {
        parameters: [
          idParam,
          { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [...FORMAT_IDS], default: 'taskdata' } },
          { name: 'revision', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        ],
        get: {
          summary: 'The plan as text in the chosen format, as a file download; X-Plangate-Dropped lists what the format cannot carry',
          responses: { 200: { description: 'The plan file' }, ...errors([400, 404, 422]) },
        },
      },
      '/api/plans/{id}/submit': {
        parameters: [idParam],
        post: {
          summary: 'Submit the head revision for review (editor). The body may name the revision and hash being submitted.',
          requestBody: { ...body(gate.SubmitRequest), required: false },
          responses: { 200: reply('In review', gate.GateTransition), ...errors([400, 404, 409, 422]) },
        },
      },
      ...Object.fromEntries(
        (
          [
            ['approve', 'Approve exactly this revision and hash (approver; not its author or submitter)'],
            ['request-changes', 'Send the revision back to its editors with a comment (approver)'],
            ['reject', 'Reject the revision (approver); a new revision is needed to submit again'],
          ] as const
        ).map(([path, summary]) => [
          `/api/plans/{id}/${path}`,
          {
            parameters: [idParam],
            post: {
              summary,
              requestBody: body(gate.DecisionRequest),
              responses: { 200: reply('Decided', gate.DecisionResponse), ...errors([400, 404, 409, 422]) },
            },
          },
        ]),
      ),
      '/api/plans/{id}/approved': {
        parameters: [idParam],
        get: {
          summary:
            'For executors: the head revision\'s document ({ plan, job, subgraphs }) and the registry resources it routes to, only while they carry the required approvals and are unchanged since. `content_hash` is "sha256:" + hex SHA-256 of the RFC 8785 canonical JSON of `document`; `resources.hash` the same over `{ targets, definitions }`. 409 `not_approved`, `stale` (`reason: "stale"` for a newer revision, `"registry_changed"` with `resources` for a changed resource) or `integrity` (the stored body or the audit chain does not verify)',
          responses: { 200: reply('Approved plan', gate.ApprovedResponse), ...errors([404, 409]) },
        },
      },
      '/api/plans/{id}/reviews': {
        parameters: [idParam],
        get: { summary: 'Review status and every decision, newest first', responses: { 200: reply('Gate', gate.GateResponse), ...errors([404]) } },
      },
      '/api/plans/{id}/audit': {
        parameters: [idParam],
        get: { summary: 'The plan\'s hash-chained audit events, oldest first', responses: { 200: reply('Events', gate.AuditResponse), ...errors([404]) } },
      },
      '/api/reviews': {
        get: { summary: 'The review queue: plans in review, oldest first', responses: { 200: { description: 'Plans in review' }, ...errors([]) } },
      },
      '/api/me': { get: { summary: 'Who the caller is', responses: { 200: { description: 'The caller' }, ...errors([]) } } },
      '/api/users': {
        get: { summary: 'Every user (admin)', responses: { 200: reply('Users', gate.UserListResponse), ...errors([]) } },
        post: {
          summary: 'Create a person (with a password) or a service account (service: true, no password) (admin)',
          requestBody: body(gate.CreateUserRequest),
          responses: { 201: reply('Created', gate.UserResponse), ...errors([400, 409, 415]) },
        },
      },
      '/api/users/{username}': {
        parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }],
        patch: {
          summary: 'Change a user\'s role (admin)',
          requestBody: body(gate.SetRoleRequest),
          responses: { 200: reply('Updated', gate.UserResponse), ...errors([400, 404, 415]) },
        },
      },
      '/api/tokens': {
        post: {
          summary:
            'Create an API token for yourself (signed in), or (admin) for the named service account; never for another person (403); shown once; expires after expires_in_days (default 90)',
          requestBody: { ...body(gate.CreateTokenRequest), required: false },
          responses: { 201: reply('Token', gate.TokenResponse), ...errors([400, 403, 404, 415]) },
        },
      },
      '/api/tokens/{tokenId}': {
        parameters: [{ name: 'tokenId', in: 'path', required: true, schema: { type: 'string' } }],
        delete: {
          summary: 'Revoke a token now (its owner, or an admin)',
          responses: { 200: { description: 'Revoked: { id, revoked_at }' }, ...errors([404]) },
        },
      },
      '/api/webhooks': {
        get: { summary: 'The outgoing webhooks, newest first; secrets are never listed (admin)', responses: { 200: reply('Webhooks', hooks.WebhookListResponse), ...errors([]) } },
        post: {
          summary:
            'Add an outgoing webhook: an http(s) URL without credentials and the events it receives (admin). The answer carries the signing secret, shown once',
          requestBody: body(hooks.CreateWebhookRequest),
          responses: { 201: reply('Created, with its secret', hooks.CreatedWebhook), ...errors([400, 415]) },
        },
      },
      '/api/webhooks/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        delete: { summary: 'Delete a webhook and its delivery log (admin)', responses: { 204: { description: 'Deleted' }, ...errors([404]) } },
      },
      '/api/webhooks/{id}/deliveries': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          summary: 'The webhook\'s newest 100 deliveries, each attempt with its status code or error (admin)',
          responses: { 200: reply('Deliveries', hooks.WebhookDeliveriesResponse), ...errors([404]) },
        },
      },
      '/api/plans/generate': {
        post: {
          summary: 'Stage 1: a new draft plan from a job (editor). With Accept: application/x-ndjson, progress lines stream first',
          requestBody: body(GenerateRequest),
          responses: { 201: { description: '{ id, revision, content_hash, planned_by }' }, ...errors([400, 415, 502]) },
        },
      },
      '/api/plans/{id}/stage2': {
        parameters: [idParam],
        post: {
          summary: 'Stage 2 for the named tasks: { uid, input_data, plan? } each, checked and stored in parameters.stage2 as a new revision',
          requestBody: body(Stage2Request),
          responses: { 200: { description: '{ revision, content_hash, results }' }, ...errors([400, 404, 409, 415, 502]) },
        },
      },
      '/api/behavior-controller/process-phase-1-task': {
        post: {
          summary: "Seed 000's Behavior Controller Stage 1 call, served by Plangate: answers { success, data: PlannerTask[] } or { success: false, error }",
          requestBody: body(Phase1Payload),
          responses: { 200: { description: '{ success: true, data }' }, ...errors([400, 502, 503]) },
        },
      },
      '/api/behavior-controller/process-phase-2-task': {
        post: {
          summary: "Seed 000's Behavior Controller Stage 2 call: answers { success, data: { uid, input_data, plan? } } or { success: false, error }",
          requestBody: body(Phase2Payload),
          responses: { 200: { description: '{ success: true, data }' }, ...errors([400, 502, 503]) },
        },
      },
      '/api/plans/{id}/simulate': {
        parameters: [idParam],
        post: {
          summary:
            'Dry-run the head revision (editor): list scheduling on `workers` with per-type `limits`, mock data flow, convertor code in a sandbox, `fail_task_ids` and Monte Carlo failures (`failure_probability`, `runs`, `seed`). Stored for the review; the answer includes the previous run for comparison',
          requestBody: body(DryRunOptions),
          responses: { 201: { description: '{ id, revision, content_hash, result, previous }' }, ...errors([400, 404, 415, 422]) },
        },
        get: { summary: 'The latest dry run of the head revision', responses: { 200: { description: 'A stored dry run' }, ...errors([404]) } },
      },
      '/api/plans/{id}/optimize': {
        parameters: [idParam],
        post: {
          summary:
            'Propose a SubGraph grouping of the head revision (editor). `rule`: chains that gain nothing from separate dispatch are merged, never lengthening the dry run at `workers`. `llm` (needs LLM_BASE_URL and LLM_MODEL, else 400): the model groups the tasks by meaning; its grouping is checked against the invariants and used if they hold, else the rule-based grouping is returned with the reason in `llm.reason`. Save the plan with the returned subgraphs to apply it',
          requestBody: { ...body(OptimizeRequest), required: false },
          responses: {
            200: {
              description:
                '{ revision, content_hash, strategy, subgraphs, report, llm? }: `strategy` is the optimiser that made `subgraphs`; `llm` is { accepted, reason, model, proposed } when the model was asked',
            },
            ...errors([400, 404, 415, 422, 502, 503]),
          },
        },
      },
      '/api/plans/{id}/replan': {
        parameters: [idParam],
        post: {
          summary:
            "Replan selected tasks of the head revision (editor; seed 000's SubGraphRePlanner). `task_ids` (else the tasks marked `mark_replan`) each get a replacement: one or more new tasks with `main_task_id` = the replaced id, taking over its dependencies and dependents. `instructions` is seed 000's custom_append_text. Stored as a proposal with a per-task `diff`; the plan does not change until it is applied",
          requestBody: body(ReplanRequest),
          responses: {
            201: { description: '{ proposal_id, plan_id, revision, content_hash, task_ids, instructions, replacements, planned_by, notes, diff, created_by, created_at, applied_revision, applied_at }' },
            ...errors([400, 404, 409, 415, 502, 503]),
          },
        },
      },
      '/api/plans/{id}/replan/{proposalId}': {
        parameters: [idParam, proposalParam],
        get: { summary: 'A replan proposal, with its diff against the revision it was made for and the revision it was applied as, if any', responses: { 200: { description: 'The proposal' }, ...errors([404]) } },
      },
      '/api/plans/{id}/replan/{proposalId}/apply': {
        parameters: [idParam, proposalParam],
        post: {
          summary:
            'Apply the accepted replacements of a proposal as one new revision (editor): `accepted_task_ids` names the replaced tasks whose replacement is accepted; the others stay. The plan returns to draft and its approvals are void. 409 when the proposal was applied already or the plan has moved on; 422 when the accepted part cannot be applied (a cycle, named)',
          requestBody: body(ApplyReplanRequest),
          responses: { 200: { description: '{ proposal_id, revision, content_hash, applied, plan }' }, ...errors([400, 404, 409, 415, 422]) },
        },
      },
      '/api/registry': {
        get: { summary: 'The resource registry (agents, tools, functions, LLMs, DSL workflows); also its JSON export', responses: { 200: reply('Registry', Registry), ...errors([]) } },
        put: {
          summary: 'Import a registry, replacing the current one (editor)',
          requestBody: body(Registry),
          responses: { 200: reply('Registry', Registry), ...errors([400, 413, 415]) },
        },
      },
      '/api/registry/{kind}/{key}': {
        parameters: [
          { name: 'kind', in: 'path', required: true, schema: { type: 'string', enum: [...RESOURCE_KINDS] } },
          { name: 'key', in: 'path', required: true, schema: { type: 'string' } },
        ],
        put: { summary: 'Create or replace one resource; key is its id (its name for an LLM)', responses: { 200: { description: 'The resource' }, ...errors([400, 404, 415]) } },
        delete: { summary: 'Delete one resource', responses: { 204: { description: 'Deleted' }, ...errors([404]) } },
      },
      '/api/openapi.json': { get: { summary: 'This document', security: [], responses: { 200: { description: 'OpenAPI 3.1' } } } },
    },
  };
}
