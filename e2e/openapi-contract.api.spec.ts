import { expect, test, type APIResponse } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020';
import { ROUTE_LIST } from '../lib/api/routes';

// The published contract, held to what the server sends: a real request to every operation
// (the happy path where it is cheap, else an expected error), each answer's status must be
// one the OpenAPI document lists for it, and its body must validate against the document's
// schema for that status, with an independent JSON Schema validator (ajv).

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch the papers', execution_type: 'tool', tool_id: 'papers_repository' },
    { task_id: 'summarise', description: 'Summarise them', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

test('every operation answers with a status and a body its OpenAPI schema describes', async ({ request }) => {
  test.setTimeout(180_000);
  const doc = await (await request.get('/api/openapi.json')).json();
  const operations = new Map<string, Operation>();
  for (const item of Object.values<Record<string, Operation>>(doc.paths)) for (const operation of Object.values(item)) operations.set(operation.operationId, operation);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const checked = new Set<string>();

  /** Checks one answer against the document and returns its body. */
  async function check(operationId: string, response: APIResponse, expected: number[]) {
    const status = response.status();
    const text = await response.text();
    expect(expected, `${operationId} answered ${status}: ${text.slice(0, 300)}`).toContain(status);
    const reply = operations.get(operationId)?.responses[String(status)];
    expect(reply, `${operationId} documents ${status}`).toBeTruthy();
    checked.add(operationId);
    if (status === 204) return null;
    const [mediaType, media] = Object.entries(reply!.content ?? {})[0];
    const body = mediaType.includes('json') ? JSON.parse(text) : text;
    // The schema is compiled beside the document's components, so its $refs resolve.
    const validate = ajv.compile({ ...media.schema, components: doc.components });
    expect(validate(body) ? [] : validate.errors, `${operationId} ${status} body`).toEqual([]);
    return body;
  }

  const call = (method: string, url: string, data?: unknown, headers?: Record<string, string>) =>
    request.fetch(url, { method, ...(data === undefined ? {} : { data }), headers });

  await check('getHealth', await call('GET', '/api/health'), [200]);
  await check('getOpenApi', await call('GET', '/api/openapi.json'), [200]);
  await check('listPlans', await call('GET', '/api/plans'), [200]);
  await check('createPlan', await call('POST', '/api/plans', { title: 42 }), [400]);
  const { id } = await check('createPlan', await call('POST', '/api/plans', { title: 'Contract', plan }), [201]);
  const head = await check('getPlan', await call('GET', `/api/plans/${id}`), [200]);
  await check('getPlan', await call('GET', '/api/plans/no-such-plan'), [404]);
  const edited = { ...head.plan, planned_tasks: head.plan.planned_tasks.map((task: { description: string }) => ({ ...task, description: `${task.description}.` })) };
  await check('savePlan', await call('PUT', `/api/plans/${id}`, { base_revision: 1, plan: edited, message: 'again' }), [200]);
  await check('savePlan', await call('PUT', `/api/plans/${id}`, { base_revision: 1, plan: head.plan }), [409]);
  const [first] = edited.planned_tasks;
  await check('patchPlan', await call('PATCH', `/api/plans/${id}`, { base_revision: 2, upsert_tasks: [{ ...first, description: 'Patched' }], positions: { [first.task_id]: { x: 1, y: 2 } } }), [200]);
  await check('patchPlan', await call('PATCH', `/api/plans/${id}`, { base_revision: 2, remove_tasks: [first.task_id] }), [409]);
  await check('patchPlan', await call('PATCH', `/api/plans/${id}`, { base_revision: 3, remove_tasks: ['no-such-task'] }), [422]);
  await check('patchPlan', await call('PATCH', `/api/plans/${id}`, { base_revision: 3, upsert_tasks: [{ description: 'no id' }] }), [400]);
  await check('listRevisions', await call('GET', `/api/plans/${id}/revisions`), [200]);
  await check('getRevision', await call('GET', `/api/plans/${id}/revisions/1`), [200]);
  await check('getRevision', await call('GET', `/api/plans/${id}/revisions/zero`), [400]);
  await check('heartbeat', await call('POST', `/api/plans/${id}/presence`, { session_id: 'contract-tab', revision: 2, dirty: false }), [200]);
  await check('leavePresence', await call('DELETE', `/api/plans/${id}/presence`, { session_id: 'contract-tab' }), [204]);
  await check('validatePlan', await call('POST', `/api/plans/${id}/validate`), [200]);
  await check('validateDocument', await call('POST', '/api/validate', { plan }), [200]);
  await check('validateDocument', await call('POST', '/api/validate', 'not json', { 'Content-Type': 'text/plain' }), [415]);
  const imported = await check('importPlan', await call('POST', '/api/plans/import', { content: JSON.stringify(plan), title: 'Imported' }), [201]);
  await check('exportPlan', await call('GET', `/api/plans/${imported.id}/export?format=planner-agent`), [200, 422]);
  await check('exportPlan', await call('GET', `/api/plans/${imported.id}/export?format=yaml`), [400]);
  const current = await check('getPlan', await call('GET', `/api/plans/${id}`), [200]);
  const decision = { revision: current.revision, content_hash: current.content_hash, comment: 'Looks right' };
  await check('approvePlan', await call('POST', `/api/plans/${id}/approve`, decision), [403, 409]);
  await check('submitPlan', await call('POST', `/api/plans/${id}/submit`, { revision: current.revision, content_hash: current.content_hash }), [200, 422]);
  // The admin token is a service account: it may not decide, whatever the decision.
  await check('approvePlan', await call('POST', `/api/plans/${id}/approve`, decision), [403]);
  await check('requestChanges', await call('POST', `/api/plans/${id}/request-changes`, decision), [403]);
  await check('rejectPlan', await call('POST', `/api/plans/${id}/reject`, decision), [403]);
  await check('getApprovedPlan', await call('GET', `/api/plans/${id}/approved`), [409]);
  // Runs: this plan is not approved (the admin token may not approve), so nothing starts.
  await check('startRun', await call('POST', `/api/plans/${id}/runs`, { revision: current.revision, content_hash: current.content_hash }), [409]);
  await check('startRun', await call('POST', `/api/plans/${id}/runs`, { revision: 0 }), [400]);
  await check('listRuns', await call('GET', `/api/plans/${id}/runs`), [200]);
  const noRun = '00000000-0000-4000-8000-000000000000';
  await check('getRun', await call('GET', `/api/runs/${noRun}`), [404]);
  await check('getRunEvents', await call('GET', `/api/runs/${noRun}/events`), [404]);
  for (const action of ['cancel', 'pause', 'resume'] as const) await check(`${action}Run`, await call('POST', `/api/runs/${noRun}/${action}`), [404]);
  await check('retryRunTask', await call('POST', `/api/runs/${noRun}/tasks/fetch/retry`), [404]);
  await check('approveGate', await call('POST', `/api/runs/${noRun}/gates/fetch/approve`), [403]);
  await check('rejectGate', await call('POST', `/api/runs/${noRun}/gates/fetch/reject`, { comment: 'no' }), [403]);
  // Unsigned, and for no run: 401 before 404, so run and task ids cannot be probed.
  await check('reportTaskResult', await call('POST', `/api/runs/${noRun}/tasks/fetch/result`, { state: 'succeeded', output: 1 }), [401]);
  await check('getReviews', await call('GET', `/api/plans/${id}/reviews`), [200]);
  await check('getAudit', await call('GET', `/api/plans/${id}/audit`), [200]);
  await check('reviewQueue', await call('GET', '/api/reviews'), [200]);
  const comment = await check('createComment', await call('POST', `/api/plans/${id}/comments`, { task_id: 'fetch', revision: current.revision, body: 'Which papers?' }), [201, 403]);
  await check('createComment', await call('POST', `/api/plans/${id}/comments`, { revision: current.revision, body: '' }), [400]);
  await check('listComments', await call('GET', `/api/plans/${id}/comments?revision=1`), [200]);
  const commentId = comment.comment?.id ?? 'no-such-comment';
  await check('resolveThread', await call('POST', `/api/plans/${id}/comments/${commentId}/resolve`), comment.comment ? [200] : [404]);
  await check('resolveThread', await call('POST', `/api/plans/${id}/comments/${commentId}/resolve`), comment.comment ? [409] : [404]);
  await check('reopenThread', await call('POST', `/api/plans/${id}/comments/${commentId}/reopen`), comment.comment ? [200] : [404]);
  await check('getInbox', await call('GET', '/api/inbox?limit=5'), [200]);
  await check('getInbox', await call('GET', '/api/inbox?limit=0'), [400]);
  await check('markInboxRead', await call('POST', '/api/inbox/read', { all: true }), [200]);
  await check('getMe', await call('GET', '/api/me'), [200]);
  await check('listUsers', await call('GET', '/api/users'), [200]);
  const username = `contract-${Date.now().toString(36)}`;
  await check('createUser', await call('POST', '/api/users', { username, role: 'editor', service: true }), [201]);
  await check('setUserRole', await call('PATCH', `/api/users/${username}`, { role: 'viewer' }), [200]);
  await check('setUserRole', await call('PATCH', '/api/users/nobody-here', { role: 'viewer' }), [404]);
  const token = await check('createToken', await call('POST', '/api/tokens', { username, expires_in_days: 1 }), [201]);
  await check('revokeToken', await call('DELETE', `/api/tokens/${token.id}`), [200]);
  await check('revokeToken', await call('DELETE', '/api/tokens/no-such-token'), [404]);
  await check('listWebhooks', await call('GET', '/api/webhooks'), [200]);
  const hook = await check('createWebhook', await call('POST', '/api/webhooks', { url: 'https://hooks.example/plangate', events: ['plan.approved'] }), [201, 400]);
  const hookId = hook.id ?? 'wh_missing';
  await check('listWebhookDeliveries', await call('GET', `/api/webhooks/${hookId}/deliveries`), hook.id ? [200] : [404]);
  await check('deleteWebhook', await call('DELETE', `/api/webhooks/${hookId}`), hook.id ? [204] : [404]);
  // The planners: the rule-based one needs no model; a missing model is a documented 4xx/5xx.
  const generated = await check('generatePlan', await call('POST', '/api/plans/generate', { task_description: 'Summarise new papers', backend: 'rule-based' }), [201, 400, 502, 503]);
  await check('generatePlan', await call('POST', '/api/plans/generate', { task_description: 7 }), [400]);
  await check('runStage2', await call('POST', `/api/plans/${id}/stage2`, { task_ids: ['summarise'], backend: 'rule-based' }), [200, 400, 409, 502, 503]);
  await check('runStage2', await call('POST', `/api/plans/${id}/stage2`, { task_ids: [] }), [400]);
  const phase = { task_input_data: 'Summarise new papers' };
  await check('processPhase1Task', await call('POST', '/api/behavior-controller/process-phase-1-task', { search_id: 's1', phase_1_data: phase }), [200, 502, 503]);
  await check('processPhase1Task', await call('POST', '/api/behavior-controller/process-phase-1-task', { search_id: '' }), [400]);
  await check('processPhase2Task', await call('POST', '/api/behavior-controller/process-phase-2-task', { search_id: 's2', phase_2_data: phase }), [200, 400, 422, 502, 503]);
  await check('processPhase2Task', await call('POST', '/api/behavior-controller/process-phase-2-task', 'x', { 'Content-Type': 'text/plain' }), [415]);
  await check('runDryRun', await call('POST', `/api/plans/${id}/simulate`, { workers: 2 }), [201]);
  await check('getLatestDryRun', await call('GET', `/api/plans/${id}/simulate`), [200]);
  await check('getLatestDryRun', await call('GET', `/api/plans/${imported.id}/simulate`), [404]);
  await check('optimizePlan', await call('POST', `/api/plans/${id}/optimize`, { strategy: 'rule', workers: 2 }), [200]);
  const target = generated?.id ?? imported.id;
  const proposal = await check('proposeReplan', await call('POST', `/api/plans/${imported.id}/replan`, { task_ids: ['summarise'], backend: 'rule-based' }), [201, 400, 409, 502, 503]);
  const proposalId = proposal.proposal_id ?? 'no-such-proposal';
  await check('getReplanProposal', await call('GET', `/api/plans/${imported.id}/replan/${proposalId}`), proposal.proposal_id ? [200] : [404]);
  await check('applyReplanProposal', await call('POST', `/api/plans/${imported.id}/replan/${proposalId}/apply`, { accepted_task_ids: ['summarise'] }), proposal.proposal_id ? [200, 409, 422] : [404]);
  await check('getPlan', await call('GET', `/api/plans/${target}`), [200]);
  const registry = await check('getRegistry', await call('GET', '/api/registry'), [200]);
  await check('replaceRegistry', await call('PUT', '/api/registry', registry), [200]);
  await check('replaceRegistry', await call('PUT', '/api/registry', { tools: 'none' }), [400]);
  const tool = registry.tools[0];
  await check('putResource', await call('PUT', `/api/registry/tools/${tool.id}`, tool), [200]);
  await check('putResource', await call('PUT', '/api/registry/gadgets/x', { id: 'x' }), [404]);
  await check('deleteResource', await call('DELETE', `/api/registry/tools/${tool.id}`), [204]);
  await check('putResource', await call('PUT', `/api/registry/tools/${tool.id}`, tool), [200]);
  const keys = await check('listPublicKeys', await call('GET', '/api/keys'), [200]);
  expect(Array.isArray(keys.keys)).toBe(true);
  // MCP: an answer streams as Server-Sent Events; the transport's own refusals are JSON-RPC errors.
  const mcp = { Accept: 'application/json, text/event-stream' };
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract', version: '1' } } };
  expect(await check('callMcp', await call('POST', '/api/mcp', initialize, mcp), [200])).toContain('"serverInfo":{"name":"plangate"');
  await check('callMcp', await call('POST', '/api/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, mcp), [202]);
  await check('callMcp', await call('POST', '/api/mcp', initialize), [406]);
  await check('callMcp', await call('POST', '/api/mcp', { method: 'tools/list' }, mcp), [400]);

  expect([...checked].sort()).toEqual(ROUTE_LIST.map((spec) => spec.operationId).sort());
});
