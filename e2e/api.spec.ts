import type { APIRequestContext } from '@playwright/test';
import { ROUTE_LIST } from '../lib/api/routes';
import { expect, test } from './fixtures';

// The REST contract, over real HTTP against a production server; this file runs once
// on the embedded PGlite database and once on PostgreSQL.

const plan = {
  task_id: 'job-e2e',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch the papers', execution_type: 'tool', tool_id: 'papers_repository' },
    { task_id: 'summarise', description: 'Summarise them', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

async function planTitles(request: APIRequestContext) {
  return ((await (await request.get('/api/plans')).json()) as { plans: Array<{ title: string }> }).plans.map((p) => p.title);
}

test('health names the database this instance uses and its status', async ({ request }, testInfo) => {
  const response = await request.get('/api/health');
  expect(response.ok()).toBe(true);
  expect(await response.json()).toEqual({
    ok: true,
    database: testInfo.project.name.endsWith('postgres') ? 'postgres' : 'pglite',
    database_status: expect.stringMatching(/^(ok|busy)$/),
    database_ms: expect.any(Number),
  });
});

test('a created plan can be read back and listed with revision 1', async ({ request }) => {
  const response = await request.post('/api/plans', { data: { title: 'Created over HTTP', plan } });
  expect(response.status()).toBe(201);
  const created = await response.json();
  expect(created).toEqual({ id: expect.any(String), revision: 1, content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  expect(response.headers()['location']).toBe(`/api/plans/${created.id}`);

  const read = await (await request.get(`/api/plans/${created.id}`)).json();
  expect(read).toMatchObject({ id: created.id, title: 'Created over HTTP', status: 'draft', revision: 1, content_hash: created.content_hash });
  expect(read.plan.planned_tasks[1]).toMatchObject({ task_id: 'summarise', dependencies: ['fetch'], status: 'pending', mark_replan: false });
  expect(read.job).toEqual({ job_goal: {}, job_objectives: {}, job_steerability_data: {}, task_description: '' });
  // Sent without positions, it was laid out as it was stored: every task placed, left to right along its dependencies.
  expect(read.view).toEqual({ positions: { fetch: { x: expect.any(Number), y: expect.any(Number) }, summarise: { x: expect.any(Number), y: expect.any(Number) } }, collapsed: [] });
  expect(read.view.positions.fetch.x).toBeLessThan(read.view.positions.summarise.x);

  const listed = await (await request.get('/api/plans')).json();
  expect(listed.plans).toContainEqual({
    id: created.id,
    title: 'Created over HTTP',
    status: 'draft',
    revision: 1,
    content_hash: created.content_hash,
    task_count: 2,
    author: expect.any(String),
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
});

test('saving needs the head revision: a stale base is a 409 that names the current revision', async ({ request, requestApi }) => {
  const { id } = await requestApi.create('E2E plan', plan);
  const edited = { ...plan, planned_tasks: plan.planned_tasks.map((t) => ({ ...t, description: `${t.description}!` })) };
  const saved = await request.put(`/api/plans/${id}`, { data: { base_revision: 1, plan: edited, message: 'louder' } });
  expect(saved.status()).toBe(200);
  const body = await saved.json();
  expect(body.revision).toBe(2);

  const stale = await request.put(`/api/plans/${id}`, { data: { base_revision: 1, plan } });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).error).toMatchObject({ code: 'conflict', current_revision: 2 });

  const head = await (await request.get(`/api/plans/${id}`)).json();
  expect(head).toMatchObject({ revision: 2, content_hash: body.content_hash });
  expect(head.plan.planned_tasks[0].description).toBe('Fetch the papers!');

  const old = await (await request.get(`/api/plans/${id}/revisions/1`)).json();
  expect(old.plan.planned_tasks[0].description).toBe('Fetch the papers');

  const revisions = (await (await request.get(`/api/plans/${id}/revisions`)).json()).revisions;
  expect(revisions.map((r: { revision: number; parent_revision: number | null; message: string }) => [r.revision, r.parent_revision, r.message])).toEqual([
    [1, null, 'Created'],
    [2, 1, 'louder'],
  ]);
});

test('bad input gets a specific 4xx and writes nothing', async ({ request }) => {
  const malformed = await request.post('/api/plans', { headers: { 'content-type': 'application/json' }, data: Buffer.from('{"title": "x", "plan": {') });
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('Malformed JSON') });

  const wrongType = await request.post('/api/plans', {
    data: { title: 'x', plan: { planned_tasks: [{ task_id: 'a', dependencies: 'b' }] } },
  });
  expect(wrongType.status()).toBe(400);
  const wrongTypeError = (await wrongType.json()).error;
  expect(wrongTypeError.code).toBe('bad_request');
  expect(wrongTypeError.message).toContain('plan.planned_tasks[0].dependencies');
  expect(wrongTypeError.details[0].path).toBe('plan.planned_tasks[0].dependencies');

  const unknownField = await request.post('/api/plans', { data: { title: 'x', plan, owner: 'me' } });
  expect(unknownField.status()).toBe(400);
  expect((await unknownField.json()).error.message).toContain('owner');

  const notJson = await request.post('/api/plans', { headers: { 'content-type': 'text/plain' }, data: Buffer.from('hello') });
  expect(notJson.status()).toBe(415);

  const huge = await request.post('/api/plans', {
    data: { title: 'huge', plan: { planned_tasks: [{ task_id: 'a', instructions: 'x'.repeat(11 * 1024 * 1024) }] } },
  });
  expect(huge.status()).toBe(413);
  expect((await huge.json()).error.code).toBe('payload_too_large');

  // Other tests create plans in parallel, so check for these titles rather than a count.
  expect(await planTitles(request)).not.toEqual(expect.arrayContaining(['x']));
  expect(await planTitles(request)).not.toContain('huge');
});

test('a malformed save is refused and the head stays where it was', async ({ request, requestApi }) => {
  const { id, content_hash } = await requestApi.create('E2E plan', plan);
  const bad = await request.put(`/api/plans/${id}`, { data: { base_revision: 'one', plan } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.details[0].path).toBe('base_revision');
  expect(await (await request.get(`/api/plans/${id}`)).json()).toMatchObject({ revision: 1, content_hash });
});

test('unknown plans and revisions are 404; a non-numeric revision is 400', async ({ request, requestApi }) => {
  expect((await request.get('/api/plans/doesnotexist')).status()).toBe(404);
  const { id } = await requestApi.create('E2E plan', plan);
  expect((await request.get(`/api/plans/${id}/revisions/9`)).status()).toBe(404);
  const bad = await request.get(`/api/plans/${id}/revisions/first`);
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.message).toContain('positive integer');
  expect((await request.put('/api/plans/doesnotexist', { data: { base_revision: 1, plan } })).status()).toBe(404);
});

test('validation reports cycles with their path, for stored and unsaved plans', async ({ request, requestApi }) => {
  const cyclic = {
    planned_tasks: [
      { task_id: 'a', execution_type: 'tool', dependencies: ['b'] },
      { task_id: 'b', execution_type: 'tool', dependencies: ['a'] },
    ],
  };
  const unsaved = await (await request.post('/api/validate', { data: { plan: cyclic } })).json();
  expect(unsaved.valid).toBe(false);
  expect(unsaved.issues[0]).toMatchObject({ severity: 'error', code: 'cycle', task_ids: expect.arrayContaining(['a', 'b']) });
  expect(unsaved.issues[0].message).toMatch(/a → b → a|b → a → b/);

  const stored = await (await request.post('/api/plans', { data: { title: 'Cyclic draft', plan: cyclic } })).json();
  const result = await (await request.post(`/api/plans/${stored.id}/validate`)).json();
  expect(result).toEqual(unsaved);

  const { id } = await requestApi.create('E2E plan', plan);
  expect(await (await request.post(`/api/plans/${id}/validate`)).json()).toEqual({ valid: true, issues: [] });
});

test('the registry is served and edited one resource at a time, and validation checks plans against it', async ({ request }) => {
  const registry = await (await request.get('/api/registry')).json();
  expect(registry.tools.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(['shipments_list', 'facilities_list']));

  const unknown = { planned_tasks: [{ task_id: 'x', execution_type: 'tool', tool_id: 'e2e_probe', arguments: { depth: 'deep' } }] };
  const before = await (await request.post('/api/validate', { data: { plan: unknown } })).json();
  expect(before.issues.map((i: { code: string }) => i.code)).toContain('unknown_target');

  const tool = { id: 'e2e_probe', description: 'Probes', input_schema: { type: 'object', required: ['depth'], properties: { depth: { type: 'integer' } } } };
  expect((await request.put('/api/registry/tools/e2e_probe', { data: tool })).status()).toBe(200);
  const after = await (await request.post('/api/validate', { data: { plan: unknown } })).json();
  expect(after.issues.map((i: { code: string; message: string }) => [i.code, i.message])).toContainEqual([
    'invalid_parameter',
    'Task "x": "depth" for e2e_probe: Invalid input: expected number, received string',
  ]);
  const mismatch = await request.put('/api/registry/tools/other', { data: tool });
  expect([mismatch.status(), (await mismatch.json()).error.message]).toEqual([400, 'The resource is "e2e_probe" but the path names "other"']);
  expect((await request.delete('/api/registry/tools/e2e_probe')).status()).toBe(204);
  expect((await request.delete('/api/registry/tools/e2e_probe')).status()).toBe(404);
});

test("the Behavior Controller endpoints answer seed 000's example payloads in its protocol", async ({ request }) => {
  const phase1 = `{
    "search_id": "5d3f8a0e-1c2b-4e7a-9f10-000000000001",
    "phase_1_data": {
      "task_input_data": "Decompose the summarization job. Goal: {\\"objective\\": \\"Summarize dataset\\"}",
      "n_history_samples": 0,
      "llm_data": { "model": "gpt-4" }
    }
  }`;
  const first = await request.post('/api/behavior-controller/process-phase-1-task', { headers: { 'content-type': 'application/json' }, data: Buffer.from(phase1) });
  expect(first.status()).toBe(200);
  const plan = await first.json();
  expect(plan.success).toBe(true);
  expect(plan.data.length).toBeGreaterThan(0);
  // PlanAndExecuteL2 takes "l2_task" tasks and routes them by parameters.sub_type.
  expect(plan.data[0]).toMatchObject({ task_id: expect.any(String), execution_type: 'l2_task', parameters: { sub_type: expect.stringMatching(/^(agent|tools|llm|dsl)$/) } });

  const phase2 = `{
    "search_id": "5d3f8a0e-1c2b-4e7a-9f10-000000000002",
    "phase_2_data": {
      "task_input_data": "Agents: agent-42. Summarize the following input... {\\"text\\": \\"Full report goes here\\"}",
      "n_history_samples": 0,
      "llm_data": { "model": "gpt-4" }
    }
  }`;
  const second = await (await request.post('/api/behavior-controller/process-phase-2-task', { headers: { 'content-type': 'application/json' }, data: Buffer.from(phase2) })).json();
  expect(second).toMatchObject({ success: true, data: { uid: 'agent-42', input_data: { text: 'Full report goes here' } } });

  const broken = await request.post('/api/behavior-controller/process-phase-1-task', { data: { search_id: 'x' } });
  expect([broken.status(), await broken.json()]).toEqual([400, { success: false, error: 'Invalid payload: phase_1_data: Invalid input: expected object, received undefined' }]);

  // A prompt offering only a resource Plangate does not have gets no other one in its place.
  const unknownOffer = await request.post('/api/behavior-controller/process-phase-2-task', {
    data: { search_id: 'offer', phase_2_data: { task_input_data: 'Agents: doc-summarizer-v2. Summarize the following input... {"text": "x"}', n_history_samples: 0, llm_data: {} } },
  });
  expect(unknownOffer.status()).toBe(422);
  expect(await unknownOffer.json()).toEqual({ success: false, error: expect.stringContaining('"doc-summarizer-v2"') });

  // Seed 000's client sends llm_data: None when it has no model settings.
  const noSettings = await request.post('/api/behavior-controller/process-phase-1-task', {
    data: { search_id: 'no-llm-data', phase_1_data: { task_input_data: 'Get facilities in Berlin', n_history_samples: 0, llm_data: null } },
  });
  expect(noSettings.status()).toBe(200);
  expect((await noSettings.json()).success).toBe(true);

  // Even a refused credential answers in the protocol's shape.
  const anonymous = await request.post('/api/behavior-controller/process-phase-1-task', { headers: { Authorization: 'Bearer pgt_not-a-token' }, data: { search_id: 'x', phase_1_data: { task_input_data: 'x' } } });
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ success: false, error: 'The API token is unknown, expired or revoked' });
});

test('a plan is generated from a job by the rule-based planner, and Stage 2 stores uid and input_data on a task', async ({ request }) => {
  const generated = await request.post('/api/plans/generate', {
    data: { task_description: 'Get facilities in Berlin, then their shipments, then check for contaminants', today: '2025-10-12' },
  });
  expect(generated.status()).toBe(201);
  const { id, revision, planned_by } = await generated.json();
  expect([revision, planned_by.backend]).toEqual([1, 'rule-based']);
  const plan = (await (await request.get(`/api/plans/${id}`)).json()).plan;
  expect(plan.planned_tasks.map((t: { tool_id: string }) => t.tool_id)).toEqual(['facilities_list', 'shipments_list', 'contaminants_list']);
  expect(plan.original_job_data.planned_by.model).toBe('rules (seed 001 shipment queries)');

  const stage2 = await request.post(`/api/plans/${id}/stage2`, { data: { task_ids: ['step-0'], base_revision: 1 } });
  expect(stage2.status()).toBe(200);
  const result = await stage2.json();
  expect(result.revision).toBe(2);
  expect(result.results[0]).toMatchObject({ task_id: 'step-0', uid: 'facilities_list', input_data: { location: 'Berlin' } });
  const stored = (await (await request.get(`/api/plans/${id}`)).json()).plan.planned_tasks[0];
  expect(stored.parameters.stage2).toMatchObject({ uid: 'facilities_list', input_data: { location: 'Berlin' } });

  const unknownTask = await request.post(`/api/plans/${id}/stage2`, { data: { task_ids: ['nope'] } });
  expect([unknownTask.status(), (await unknownTask.json()).error.message]).toEqual([400, `No task "nope" in plan "${id}"`]);
  const empty = await request.post('/api/plans/generate', { data: { task_description: '   ' } });
  expect(empty.status()).toBe(400);
});

test('a proposed SubGraph grouping keeps the invariants, and saving it passes validation', async ({ request }) => {
  const chain = {
    planned_tasks: [
      { task_id: 'a', execution_type: 'tool', tool_id: 'facilities_list', estimate_data: { latency_ms: 100 } },
      { task_id: 'b', execution_type: 'tool', tool_id: 'shipments_list', dependencies: ['a'], estimate_data: { latency_ms: 100 } },
      { task_id: 'c', execution_type: 'tool', tool_id: 'inspections_list', estimate_data: { latency_ms: 100 } },
    ],
  };
  const { id } = await (await request.post('/api/plans', { data: { title: 'To group', plan: chain } })).json();
  const proposal = await (await request.post(`/api/plans/${id}/optimize`, { data: { strategy: 'rule', workers: 2 } })).json();
  expect(proposal.subgraphs.map((s: { task_ids: string[] }) => s.task_ids)).toEqual([['a', 'b'], ['c']]);
  expect(proposal.report).toMatchObject({ subgraphs: 2, dispatches_saved: 1, makespan_before_ms: 200, makespan_after_ms: 200 });
  const saved = await request.put(`/api/plans/${id}`, { data: { base_revision: 1, plan: chain, subgraphs: proposal.subgraphs } });
  expect(saved.status()).toBe(200);
  expect((await (await request.post(`/api/plans/${id}/validate`)).json()).issues.filter((i: { code: string }) => i.code.startsWith('subgraph'))).toEqual([]);
  const llm = await request.post(`/api/plans/${id}/optimize`, { data: { strategy: 'llm' } });
  expect(llm.status()).toBe(400);
});

test('replanning selected tasks gives a proposal with its diff, and applying the accepted part makes a new revision', async ({ request }) => {
  const planned = {
    planned_tasks: [
      { task_id: 'ship', description: 'Get contaminated shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { has_contaminants: true, limit: 100 } },
      { task_id: 'sum', description: 'Summarise them', execution_type: 'llm', function_id: 'gpt-4', dependencies: ['ship'] },
    ],
  };
  const { id } = await (await request.post('/api/plans', { data: { title: 'To replan', plan: planned } })).json();
  const proposed = await request.post(`/api/plans/${id}/replan`, { data: { task_ids: ['ship', 'sum'], instructions: 'from last week', base_revision: 1 } });
  expect(proposed.status()).toBe(201);
  const proposal = await proposed.json();
  expect(proposal).toMatchObject({ plan_id: id, revision: 1, task_ids: ['ship', 'sum'], planned_by: { backend: 'rule-based' }, applied_revision: null });
  expect(proposal.diff.map((d: { replaces: string; error: string | null }) => [d.replaces, d.error])).toEqual([
    ['ship', null],
    ['sum', null],
  ]);
  expect(proposal.replacements[0].tasks[0]).toMatchObject({ task_id: 'ship-r1', tool_id: 'shipments_list', arguments: { has_contaminants: true, date_from: expect.any(String) } });
  expect(await (await request.get(`/api/plans/${id}/replan/${proposal.proposal_id}`)).json()).toEqual(proposal);
  expect((await (await request.get(`/api/plans/${id}`)).json()).revision).toBe(1);

  const applied = await request.post(`/api/plans/${id}/replan/${proposal.proposal_id}/apply`, { data: { accepted_task_ids: ['ship'] } });
  expect(applied.status()).toBe(200);
  const result = await applied.json();
  expect(result).toMatchObject({ proposal_id: proposal.proposal_id, revision: 2, applied: ['ship'], plan: { revision: 2, status: 'draft' } });
  expect(result.plan.plan.planned_tasks.map((t: { task_id: string; main_task_id: string; dependencies: string[] }) => [t.task_id, t.main_task_id, t.dependencies])).toEqual([
    ['ship-r1', 'ship', []],
    ['sum', '', ['ship-r1']],
  ]);

  const again = await request.post(`/api/plans/${id}/replan/${proposal.proposal_id}/apply`, { data: { accepted_task_ids: ['ship'] } });
  expect([again.status(), (await again.json()).error]).toEqual([409, expect.objectContaining({ code: 'conflict', applied_revision: 2 })]);
  const unknownTask = await request.post(`/api/plans/${id}/replan`, { data: { task_ids: ['nope'] } });
  expect([unknownTask.status(), (await unknownTask.json()).error.message]).toEqual([400, `No task "nope" in plan "${id}"`]);
  expect((await request.get(`/api/plans/${id}/replan/nosuchproposal`)).status()).toBe(404);
});

test('the OpenAPI document describes every endpoint of the route table, and other paths and methods answer JSON errors', async ({ request }) => {
  const doc = await (await request.get('/api/openapi.json')).json();
  expect(doc.openapi).toBe('3.1.0');
  const described = Object.entries<Record<string, { operationId: string }>>(doc.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, operation]) => `${operation.operationId} ${method} ${route}`),
  );
  expect(described.sort()).toEqual(ROUTE_LIST.map((spec) => `${spec.operationId} ${spec.method} ${spec.path}`).sort());
  const createBody = doc.paths['/api/plans'].post.requestBody.content['application/json'].schema;
  expect(createBody.required).toEqual(expect.arrayContaining(['title', 'plan']));

  // An unknown path under /api is the API's JSON 404, for any method, never the HTML page.
  for (const method of ['GET', 'POST', 'DELETE']) {
    const missing = await request.fetch('/api/no-such-thing/at-all', { method });
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  }
  // A known path with a method it does not have: 405, JSON, and the methods it does have.
  const wrong = await request.fetch('/api/plans/some-plan/approved', { method: 'DELETE' });
  expect(wrong.status()).toBe(405);
  expect(wrong.headers()['allow']).toBe('GET, HEAD, OPTIONS');
  expect((await wrong.json()).error.code).toBe('method_not_allowed');
});

test('import detects a Planner Agent plan, and export returns each format as a named file', async ({ request }) => {
  const content = JSON.stringify({
    steps: [
      { tool: 'shipments_list', params: { has_contaminants: true, limit: 100 }, depends_on: [], parallel: false },
      { tool: 'contaminants_list', params: { shipment_ids: '${step[0].data.*.id}' }, depends_on: [0], parallel: false },
    ],
  });
  const response = await request.post('/api/plans/import', { data: { content, title: 'Imported shipments' } });
  expect(response.status()).toBe(201);
  const imported = await response.json();
  expect(imported).toMatchObject({ revision: 1, format: 'planner-agent' });
  const plan = (await (await request.get(`/api/plans/${imported.id}`)).json()).plan;
  expect(plan.planned_tasks.map((t: { tool_id: string; dependencies: string[] }) => [t.tool_id, t.dependencies.length])).toEqual([
    ['shipments_list', 0],
    ['contaminants_list', 1],
  ]);

  const xml = await request.get(`/api/plans/${imported.id}/export?format=cortex-xml&revision=1`);
  expect(xml.status()).toBe(200);
  expect(xml.headers()['content-type']).toContain('application/xml');
  expect(xml.headers()['content-disposition']).toMatch(/^attachment; filename="imported-shipments-r1\.cortex-xml\.xml"$/);
  expect(await xml.text()).toContain('<plan>');

  const unknown = await request.get(`/api/plans/${imported.id}/export?format=yaml`);
  expect(unknown.status()).toBe(400);
  expect((await unknown.json()).error.message).toContain('Unknown export format "yaml"');
});

test('a broken import names the format and the place of the problem and creates nothing', async ({ request }) => {
  const content = JSON.stringify({ steps: [{ tool: 'shipments_list', params: {}, depends_on: [4] }] });
  const response = await request.post('/api/plans/import', { data: { content, format: 'planner-agent', title: 'Broken planner import' } });
  expect(response.status()).toBe(400);
  const error = (await response.json()).error;
  expect(error.message).toMatch(/^Could not import as planner-agent: steps\[0\]\.depends_on\[0\]/);
  expect(error.format).toBe('planner-agent');
  const titles = (await (await request.get('/api/plans')).json()).plans.map((p: { title: string }) => p.title);
  expect(titles).not.toContain('Broken planner import');
});

test('text no database row can hold, and absurd nesting, are a 400 naming the problem, never a 500', async ({ request }) => {
  const nul = await request.put('/api/registry/tools/nul_probe', { headers: { 'content-type': 'application/json' }, data: Buffer.from('{"id":"nul_probe","description":"a\\u0000b"}') });
  expect(nul.status()).toBe(400);
  expect((await nul.json()).error.message).toBe('The resource contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored');
  const surrogate = await request.post('/api/plans', { headers: { 'content-type': 'application/json' }, data: Buffer.from('{"title":"x","plan":{"planned_tasks":[{"task_id":"a\\ud800"}]}}') });
  expect(surrogate.status()).toBe(400);
  const deep = `{"title":"deep","plan":{"planned_tasks":[]},"job":{"job_goal":${'{"x":'.repeat(100_000)}1${'}'.repeat(100_000)}}}`;
  const nested = await request.post('/api/plans', { headers: { 'content-type': 'application/json' }, data: Buffer.from(deep) });
  expect(nested.status()).toBe(400);
  expect((await nested.json()).error.message).toMatch(/nests deeper than \d+ levels/);
  const lone = await request.put('/api/registry/tools/lone_probe', { headers: { 'content-type': 'application/json' }, data: Buffer.from('{"id":"lone_probe","description":"a\\udc00"}') });
  expect(lone.status()).toBe(400);
  const created = await (await request.post('/api/plans', { data: { title: 'Fuzzed replan', plan } })).json();
  for (const instructions of ['a\\u0000b', 'a\\ud800b']) {
    const replan = await request.post(`/api/plans/${created.id}/replan`, { headers: { 'content-type': 'application/json' }, data: Buffer.from(`{"task_ids":["${plan.planned_tasks[0].task_id}"],"instructions":"${instructions}"}`) });
    expect(replan.status()).toBe(400);
  }
});
