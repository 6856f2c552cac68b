import { expect, test, type APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { adminHeaders, signIn } from './auth-support';
import type { Role } from '../lib/auth/roles';
import { ROUTE_LIST } from '../lib/api/routes';
import { serverActions, type ActionEntry } from './server-actions';

// Every REST endpoint (as the route table, lib/api/routes.ts, declares them with their
// least role) and every server action (as the build's manifest lists them) is sent without
// a session, with a viewer's session, with an expired token and from a foreign Origin. None
// may succeed beyond what a viewer may read. Runs against the PostgreSQL instance, so the
// test can expire a token in the database.

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

/** Every non-public endpoint of the route table, its path filled in, with the least role the table gives it. */
function endpoints(id: string): Endpoint[] {
  const values: Record<string, string> = { id, rev: '1', username: 'viewer-1', tokenId: 'no-such-token', kind: 'tools', key: 'shipments_list', proposalId: 'no-such-proposal', commentId: 'no-such-comment' };
  return ROUTE_LIST.flatMap((spec) => {
    if (spec.role === null) return []; // public: health, the OpenAPI document, and executors' signed results
    const url = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? name);
    return [{ method: spec.method, url, role: spec.role }];
  });
}

function send(request: APIRequestContext, endpoint: Endpoint, headers: Record<string, string> = {}) {
  return request.fetch(endpoint.url, {
    method: endpoint.method.toUpperCase(),
    headers,
    ...(endpoint.method === 'get' ? {} : { data: { plan, base_revision: 1, revision: 1, content_hash: 'sha256:' + '0'.repeat(64), title: 'x', content: '[]', username: 'intruder', password: 'password-123', role: 'admin' } }),
  });
}

function callAction(request: APIRequestContext, action: ActionEntry, headers: Record<string, string> = {}) {
  return request.post(action.page, {
    headers: { 'Next-Action': action.id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component', ...headers },
    data: JSON.stringify([{ id: 'x', request: { base_revision: 1, plan }, claim: {}, username: 'intruder', password: 'password-123', role: 'admin' }]),
  });
}

/**
 * The refusal a body names: Plangate's { error: { code } }, or for seed 000's Behavior
 * Controller routes, which answer in that protocol's { success: false, error: "<message>" },
 * the code its message stands for.
 */
function refusalOf(body: { success?: boolean; error: string | { code: string } }): string {
  if (typeof body.error !== 'string') return body.error.code;
  expect(body.success).toBe(false);
  return /role/i.test(body.error) ? 'forbidden' : /sign in|token|authorization/i.test(body.error) ? 'unauthenticated' : body.error;
}

// The inline sign-in is a sign-in: it takes credentials, not a session.
const PUBLIC_ACTIONS = new Set(['signInAction', 'signInInlineAction', 'signOutAction', 'passkeySignInOptionsAction', 'passkeySignInAction']);
/**
 * Actions a viewer may run: reading plans, and their own inbox, "viewed" marks and passkeys
 * (each scoped to the caller). Presence on a plan they read is a route (/presence), not an action.
 */
const VIEWER_ACTIONS = new Set([
  'loadPlanAction',
  'listRevisionsAction',
  'markInboxReadAction',
  'listTaskViewsAction',
  'setTaskViewedAction',
  'passkeyStatusAction',
  'passkeyRegistrationOptionsAction',
  'registerPasskeyAction',
  'revokePasskeyAction',
]);

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

  const list = endpoints(id);
  // The only routes without a session or token; a result report proves itself by its signature
  // (lib/server/runs/run-engine.test.ts refuses unsigned and tampered ones).
  expect(ROUTE_LIST.filter((spec) => spec.role === null).map((spec) => spec.operationId)).toEqual(['getHealth', 'getOpenApi', 'reportTaskResult']);
  expect(list.length).toBe(ROUTE_LIST.length - 3);
  for (const endpoint of list) {
    const where = `${endpoint.method.toUpperCase()} ${endpoint.url}`;
    const none = await send(anonymous, endpoint);
    expect(none.status(), `${where} without credentials`).toBe(401);
    expect(refusalOf(await none.json()), where).toBe('unauthenticated');
    expect((await send(anonymous, endpoint, { Authorization: `Bearer ${expired}` })).status(), `${where} with an expired token`).toBe(401);
    if (endpoint.role !== 'viewer') {
      const asViewer = await send(viewer, endpoint);
      expect(asViewer.status(), `${where} as a viewer`).toBe(403);
      expect(refusalOf(await asViewer.json()), where).toBe('forbidden');
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
    if (!VIEWER_ACTIONS.has(action.name)) {
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
