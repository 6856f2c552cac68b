import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { adminHeaders, signIn } from './auth-support';

// Every REST endpoint (as the OpenAPI document lists them) and every server action (as the
// build's manifest lists them) is sent without a session, with a viewer's session, with
// an expired token and from a foreign Origin. None may succeed beyond what a viewer may
// read. Runs against the PostgreSQL instance, so the test can expire a token in the database.

type Role = 'viewer' | 'editor' | 'approver' | 'admin';

function requiredRole(method: string, route: string): Role {
  if (route === '/api/users' || route.startsWith('/api/users/') || route.startsWith('/api/webhooks')) return 'admin';
  if (/\/(approve|request-changes|reject)$/.test(route)) return 'approver';
  if (method === 'get' || route.endsWith('/validate') || route.startsWith('/api/tokens')) return 'viewer';
  return 'editor';
}

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

interface Endpoint {
  method: string;
  url: string;
  role: Role;
}

async function endpoints(request: APIRequestContext, id: string): Promise<Endpoint[]> {
  const doc = await (await request.get('/api/openapi.json')).json();
  const list: Endpoint[] = [];
  for (const [route, item] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (Array.isArray(operation.security) && operation.security.length === 0) continue; // public: health, this document
      const url = route.replace('{id}', id).replace('{rev}', '1').replace('{username}', 'viewer-1').replace('{tokenId}', 'no-such-token').replace('{kind}', 'tools').replace('{key}', 'shipments_list').replace('{proposalId}', 'no-such-proposal');
      list.push({ method, url, role: requiredRole(method, route) });
    }
  }
  return list;
}

function send(request: APIRequestContext, endpoint: Endpoint, headers: Record<string, string> = {}) {
  return request.fetch(endpoint.url, {
    method: endpoint.method.toUpperCase(),
    headers,
    ...(endpoint.method === 'get' ? {} : { data: { plan, base_revision: 1, revision: 1, content_hash: 'sha256:' + '0'.repeat(64), title: 'x', content: '[]', username: 'intruder', password: 'password-123', role: 'admin' } }),
  });
}

interface ActionEntry {
  id: string;
  name: string;
  page: string;
}

function serverActions(planId: string): ActionEntry[] {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '.next', 'server', 'server-reference-manifest.json'), 'utf8'));
  return Object.entries<{ exportedName: string; workers: Record<string, unknown> }>(manifest.node).map(([id, entry]) => {
    const worker = Object.keys(entry.workers).find((w) => !w.includes('_not-found')) ?? 'app/sign-in/page';
    const page = worker.replace(/^app/, '').replace(/\/page$/, '').replace('[id]', planId).replace('[rev]', '1') || '/';
    return { id, name: entry.exportedName, page };
  });
}

function callAction(request: APIRequestContext, action: ActionEntry, headers: Record<string, string> = {}) {
  return request.post(action.page, {
    headers: { 'Next-Action': action.id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component', ...headers },
    data: JSON.stringify([{ id: 'x', request: { base_revision: 1, plan }, claim: {}, username: 'intruder', password: 'password-123', role: 'admin' }]),
  });
}

const PUBLIC_ACTIONS = new Set(['signInAction', 'signOutAction']);

test('no endpoint or server action lets an anonymous caller, a viewer, an expired token or a foreign origin through', async ({
  browser,
  baseURL,
  playwright,
}) => {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
  const { id } = await (await admin.post('/api/plans', { data: { title: 'Authorization target', plan } })).json();
  const viewerCreated = await admin.post('/api/users', { data: { username: 'viewer-1', password: 'viewer-pass-1', role: 'viewer' } });
  expect([201, 409]).toContain(viewerCreated.status());
  const editorCreated = await admin.post('/api/users', { data: { username: 'editor-1', password: 'editor-pass-1', role: 'editor' } });
  expect([201, 409]).toContain(editorCreated.status());

  const anonymous = await playwright.request.newContext({ baseURL });
  const viewerContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, 'viewer-1', 'viewer-pass-1');
  const viewer = viewerPage.request;
  const editorContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const editorPage = await editorContext.newPage();
  await signIn(editorPage, 'editor-1', 'editor-pass-1');

  // A token acts in its owner's name: the admin cannot mint one for the editor; the
  // editor, signed in, mints their own (page.request carries the session cookie).
  expect((await admin.post('/api/tokens', { data: { username: 'editor-1' } })).status()).toBe(403);
  const minted = await editorPage.request.post('/api/tokens', { data: { expires_in_days: 1 } });
  expect(minted.status()).toBe(201);
  const { token: expired, id: tokenId, username: owner } = await minted.json();
  expect(owner).toBe('editor-1');
  const db = new pg.Client({ connectionString: process.env.PLANGATE_E2E_DATABASE_URL });
  await db.connect();
  await db.query(`update api_tokens set expires_at = now() - interval '1 minute' where id = $1`, [tokenId]);
  await db.end();

  const list = await endpoints(admin, id);
  expect(list.length).toBeGreaterThanOrEqual(20);
  for (const endpoint of list) {
    const where = `${endpoint.method.toUpperCase()} ${endpoint.url}`;
    const none = await send(anonymous, endpoint);
    expect(none.status(), `${where} without credentials`).toBe(401);
    expect((await none.json()).error.code, where).toBe('unauthenticated');
    expect((await send(anonymous, endpoint, { Authorization: `Bearer ${expired}` })).status(), `${where} with an expired token`).toBe(401);
    if (endpoint.role !== 'viewer') {
      const asViewer = await send(viewer, endpoint);
      expect(asViewer.status(), `${where} as a viewer`).toBe(403);
      expect((await asViewer.json()).error.code).toBe('forbidden');
    }
    if (endpoint.method !== 'get') {
      const foreign = await send(admin, endpoint, { Origin: 'https://evil.example' });
      expect(foreign.status(), `${where} from a foreign origin`).toBe(403);
      const crossSite = await send(editorPage.request, endpoint, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
      expect(crossSite.status(), `${where} cross-site with a session`).toBe(403);
    }
  }

  const actions = serverActions(id);
  expect(actions.map((a) => a.name)).toEqual(expect.arrayContaining(['savePlanAction', 'importPlanAction', 'submitForReviewAction', 'decideAction']));
  for (const action of actions.filter((a) => !PUBLIC_ACTIONS.has(a.name))) {
    const none = await (await callAction(anonymous, action)).text();
    expect(none, `${action.name} without a session`).toContain('"code":"unauthenticated"');
    const expiredCall = await (await callAction(anonymous, action, { Authorization: `Bearer ${expired}` })).text();
    expect(expiredCall, `${action.name} with an expired token`).toContain('"code":"unauthenticated"');
    if (action.name !== 'loadPlanAction' && action.name !== 'listRevisionsAction') {
      expect(await (await callAction(viewer, action)).text(), `${action.name} as a viewer`).toContain('"code":"forbidden"');
    }
    const foreign = await callAction(editorPage.request, action, { Origin: 'https://evil.example' });
    expect(await foreign.text(), `${action.name} from a foreign origin`).not.toContain('"ok":true');
  }

  // Nothing above changed anything.
  const after = await (await admin.get(`/api/plans/${id}`)).json();
  expect([after.revision, after.status]).toEqual([1, 'draft']);
  const users = (await (await admin.get('/api/users')).json()).users.map((u: { username: string }) => u.username);
  expect(users).not.toContain('intruder');

  await Promise.all([viewerContext.close(), editorContext.close(), anonymous.dispose(), admin.dispose()]);
});
