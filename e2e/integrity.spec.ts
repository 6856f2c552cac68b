import { expect, test, type APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { adminHeaders, signIn } from './auth-support';

// What an attacker with write access to the PostgreSQL database can and cannot do to an
// approved plan: whatever they change in a stored revision after approval, the hand-off
// refuses it (409 integrity) instead of giving an executor something nobody approved.

const plan = {
  planned_tasks: [{ task_id: 'list', description: 'List accepted shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { status: 'accepted' } }],
};

async function approvedPlan(admin: APIRequestContext, author: APIRequestContext, approver: APIRequestContext, title: string): Promise<string> {
  const { id } = await (await author.post('/api/plans', { data: { title, plan } })).json();
  const submitted = await (await author.post(`/api/plans/${id}/submit`)).json();
  const decided = await approver.post(`/api/plans/${id}/approve`, { data: { revision: submitted.revision, content_hash: submitted.content_hash } });
  expect(decided.status()).toBe(200);
  expect((await admin.get(`/api/plans/${id}/approved`)).status()).toBe(200);
  return id;
}

test('a revision edited in the database after approval is never handed off', async ({ browser, playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
  // A person writes the plans and another approves them: an account the admin token made may
  // not approve what the admin token wrote (four-eyes counts it as a sock puppet).
  const personApi = async (role: 'editor' | 'approver') => {
    const name = `integrity-${role}-${Date.now().toString(36)}`;
    expect((await admin.post('/api/users', { data: { username: name, password: `${role}-pass-1`, role } })).status()).toBe(201);
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await signIn(page, name, `${role}-pass-1`);
    const { token } = await (await page.request.post('/api/tokens', { data: { label: 'integrity' } })).json();
    await context.close();
    return playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  };
  const author = await personApi('editor');
  const approver = await personApi('approver');

  const content = await approvedPlan(admin, author, approver, 'Filter swapped after approval');
  const layout = await approvedPlan(admin, author, approver, 'Only the stored layout edited');
  const db = new pg.Client({ connectionString: process.env.PLANGATE_E2E_DATABASE_URL });
  await db.connect();
  try {
    // Tasks are stored once by hash: the first task's row is the first task of the approved revision.
    await db.query(
      `update plan_tasks set body = jsonb_set(body, '{arguments,status}', '"rejected"')
       where plan_id = $1 and hash = (select page.task_hashes[1] from plan_revisions join plan_pages page on page.plan_id = plan_revisions.plan_id and page.hash = plan_revisions.page_hashes[1] where plan_revisions.plan_id = $1 and revision = 1)`,
      [content],
    );
    // View data is outside the content hash, but the stored body is in the signed audit trail.
    // The plan was laid out as it was stored, so its positions live in its pages.
    expect((await db.query(`update plan_pages set positions = '{"list": {"x": 1, "y": 2}}' where plan_id = $1`, [layout])).rowCount).toBe(1);
  } finally {
    await db.end();
  }
  for (const id of [content, layout]) {
    const refused = await admin.get(`/api/plans/${id}/approved`);
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error).toMatchObject({ code: 'integrity' });
  }
  await Promise.all([author.dispose(), approver.dispose(), admin.dispose()]);
});
