import { expect, test, type PlansApi } from './fixtures';

// Paged lists and conditional plan reads over real HTTP; runs on PGlite and PostgreSQL
// (the api projects match *api.spec.ts).

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch the papers', execution_type: 'tool', tool_id: 'papers_repository' },
    { task_id: 'summarise', description: 'Summarise them', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

/** A plan under exactly this title: the lists are searched and sorted by it. */
async function createPlan(api: PlansApi, title: string): Promise<string> {
  return (await api.create(title, plan, { exactTitle: true })).id;
}

test('the plan list pages by cursor without repeating or skipping plans created in between', async ({ request, requestApi }) => {
  const tag = `paged${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await createPlan(requestApi, `${tag} ${i}`));

  const first = await request.get(`/api/plans?q=${tag}&limit=2`);
  expect(first.status()).toBe(200);
  const page1 = await first.json();
  expect(page1.plans.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
  expect(page1.plans[0]).toMatchObject({ task_count: 2, author: expect.any(String), created_at: expect.any(String) });
  expect(page1.next_cursor).toEqual(expect.any(String));

  await createPlan(requestApi, `${tag} late`);
  const page2 = await (await request.get(`/api/plans?q=${tag}&limit=2&cursor=${page1.next_cursor}`)).json();
  expect(page2).toEqual({ plans: [expect.objectContaining({ id: ids[0] })], next_cursor: null });

  const bad = await request.get('/api/plans?cursor=bm90IGEgY3Vyc29y');
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toMatchObject({ code: 'bad_request', message: 'Invalid cursor' });
  const misspelt = await request.get('/api/plans?stauts=draft');
  expect(misspelt.status()).toBe(400);
  expect((await misspelt.json()).error.message).toContain('stauts');
  expect((await request.get('/api/plans?status=done')).status()).toBe(400);
  expect((await request.get('/api/plans?limit=201')).status()).toBe(400);

  const revisions = await (await request.get(`/api/plans/${ids[0]}/revisions?limit=1`)).json();
  expect(revisions).toEqual({ revisions: [expect.objectContaining({ revision: 1 })], next_cursor: null });
  const audit = await (await request.get(`/api/plans/${ids[0]}/audit?limit=1`)).json();
  expect(audit).toEqual({ events: [expect.objectContaining({ kind: 'created' })], next_cursor: null });
});

test('plan reads send an ETag and answer 304 to a matching If-None-Match until the status changes', async ({ request, requestApi }) => {
  const id = await createPlan(requestApi, 'Conditional read');
  const read = await request.get(`/api/plans/${id}`);
  const etag = read.headers()['etag'];
  expect(etag).toMatch(/^"[^"]+"$/);

  for (const header of [etag, `"stale", ${etag}`, `W/${etag}`, '*']) {
    const cached = await request.get(`/api/plans/${id}`, { headers: { 'If-None-Match': header } });
    expect(cached.status(), header).toBe(304);
    expect((await cached.body()).length).toBe(0);
  }
  expect((await request.get(`/api/plans/${id}`, { headers: { 'If-None-Match': '"stale"' } })).status()).toBe(200);

  const revision = await request.get(`/api/plans/${id}/revisions/1`);
  const revisionTag = revision.headers()['etag'];
  expect((await request.get(`/api/plans/${id}/revisions/1`, { headers: { 'If-None-Match': revisionTag } })).status()).toBe(304);

  expect((await request.post(`/api/plans/${id}/submit`, { data: {} })).status()).toBe(200);
  const changed = await request.get(`/api/plans/${id}`, { headers: { 'If-None-Match': etag } });
  expect(changed.status()).toBe(200);
  expect((await changed.json()).status).toBe('in_review');
  expect(changed.headers()['etag']).not.toBe(etag);
});

test('a query parameter given twice is refused with a 400 naming it, on every list', async ({ request, requestApi }) => {
  const id = await createPlan(requestApi, `repeated ${Date.now().toString(36)}`);
  for (const path of ['/api/plans?limit=2&limit=3', `/api/plans/${id}/revisions?limit=2&limit=3`, `/api/plans/${id}/runs?limit=2&limit=3`, '/api/reviews?limit=2&limit=3']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(400);
    expect((await response.json()).error.message, path).toBe('Query parameter "limit" is given more than once');
  }
});
