import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { adminHeaders, signIn } from './auth-support';

// The approval gate end to end, as two people in two browsers: an editor (the signed-in
// browser state every UI test starts with) and an approver who signs in here. The
// executors' hand-off, GET /approved, is checked after every step.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

async function handOff(request: APIRequestContext, id: string) {
  const response = await request.get(`/api/plans/${id}/approved`, { headers: adminHeaders });
  const body = await response.json();
  return { status: response.status(), code: body.error?.code as string | undefined, revision: body.revision as number | undefined };
}

async function editDescription(page: Page, from: string, to: string, message: string, { voidsApproval = false } = {}) {
  // The first layout runs in a worker and stores positions; edit once it has settled.
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();
  await page.getByRole('group', { name: `Task ${from}` }).click();
  await page.getByRole('textbox', { name: 'Description' }).fill(to);
  await page.getByRole('textbox', { name: 'Description' }).blur();
  await page.getByRole('textbox', { name: 'Revision message' }).fill(message);
  await page.getByRole('button', { name: 'Save' }).click();
  // The editor asks before a save that voids a standing approval.
  if (voidsApproval) await page.getByRole('alertdialog', { name: 'Save and void the approval?' }).getByRole('button', { name: 'Save and void approval' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
}

async function approverPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, 'approver');
  return page;
}

test('an editor submits, cannot approve; an approver approves; the next edit supersedes the approval', async ({ page, browser, baseURL }) => {
  const created = await page.request.post('/api/plans', { data: { title: 'Shipments to approve', plan } });
  const { id } = await created.json();

  // The editor edits and submits.
  await page.goto(`/plans/${id}`);
  await editDescription(page, 'Fetch shipments', 'Fetch recent shipments', 'recent only');
  expect(await handOff(page.request, id)).toMatchObject({ status: 409, code: 'not_approved' });
  await page.getByRole('button', { name: 'Submit r2 for review' }).click();
  await expect(page.getByText('in review', { exact: true })).toBeVisible();
  expect(await handOff(page.request, id)).toMatchObject({ status: 409, code: 'not_approved' });

  // The editor cannot approve: no decision controls, and the API says 403.
  await page.getByRole('link', { name: 'Review', exact: true }).click();
  await expect(page.getByText('Approvers decide here; you have the editor role.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  const head = await (await page.request.get(`/api/plans/${id}`)).json();
  const denied = await page.request.post(`/api/plans/${id}/approve`, { data: { revision: head.revision, content_hash: head.content_hash } });
  expect(denied.status()).toBe(403);

  // The approver finds it in the queue, reads the diff and approves.
  const approver = await approverPage(browser, baseURL!);
  await approver.goto('/reviews');
  await approver.getByRole('link', { name: 'Shipments to approve' }).click();
  await expect(approver.getByRole('heading', { name: 'Changes since revision 1' })).toBeVisible();
  await expect(approver.getByRole('region', { name: 'Changes since revision 1' })).toContainText('Fetch recent shipments');
  await expect(approver.getByRole('region', { name: 'Validation' })).toContainText('No errors');
  await approver.getByRole('textbox', { name: 'Comment' }).fill('Recent shipments only is right.');
  await approver.getByRole('button', { name: 'Approve' }).click();
  await expect(approver.getByRole('list', { name: 'Decisions' })).toContainText('Recent shipments only is right.');
  await expect(approver.getByRole('button', { name: 'Approve' })).toBeDisabled();
  expect(await handOff(page.request, id)).toEqual({ status: 200, code: undefined, revision: 2 });

  // The plan shows approved to the editor too.
  await page.goto('/');
  await expect(page.getByRole('row', { name: /Shipments to approve/ })).toContainText('approved');

  // One more edit: back to draft, the approval superseded, the hand-off refused as stale.
  await page.goto(`/plans/${id}`);
  await editDescription(page, 'Summarise', 'Summarise by facility', 'group by facility', { voidsApproval: true });
  await expect(page.getByText('draft', { exact: true })).toBeVisible();
  expect(await handOff(page.request, id)).toMatchObject({ status: 409, code: 'stale' });
  await page.goto(`/plans/${id}/review`);
  await expect(page.getByRole('list', { name: 'Decisions' })).toContainText('superseded');
  await expect(page.getByRole('heading', { name: 'Changes since approved revision 2' })).toBeVisible();

  await page.getByRole('link', { name: 'History' }).click();
  const events = page.getByRole('list', { name: 'Audit events, oldest first' });
  for (const kind of ['Created', 'Submitted for review', 'Approved', 'Approval superseded']) await expect(events).toContainText(kind);
  await approver.context().close();
});

/** RFC 8785 canonical JSON for plan-shaped values, written here so the test checks the README's recipe, not the app's code. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

test('an approval covers the resources a plan routes to: moving nodes keeps it, changing the tool voids it', async ({ page, browser, baseURL }) => {
  // A tool of this test's own, so editing it voids no other test's approval.
  const tool = `binding_tool_${Date.now().toString(36)}`;
  const definition = { id: tool, description: 'Lists shipments', input_schema: { type: 'object', properties: { days: { type: 'integer' } } } };
  expect((await page.request.put(`/api/registry/tools/${tool}`, { data: definition })).status()).toBe(200);
  const created = await page.request.post('/api/plans', {
    data: { title: 'Bound to its tool', plan: { planned_tasks: [{ task_id: 'list', description: 'List shipments', execution_type: 'tool', tool_id: tool, arguments: { days: 7 } }] } },
  });
  const { id, content_hash } = await created.json();
  expect((await page.request.post(`/api/plans/${id}/submit`, { data: {} })).status()).toBe(200);

  const approver = await approverPage(browser, baseURL!);
  await approver.goto(`/plans/${id}/review`);
  await expect(approver.getByRole('region', { name: 'Registry resources' })).toContainText(`tools/${tool}`);
  await approver.getByRole('button', { name: 'Approve' }).click();
  await expect(approver.getByRole('list', { name: 'Decisions' })).toContainText('approved');

  // What an executor gets, and checks without any of Plangate's code.
  const approved = await (await page.request.get(`/api/plans/${id}/approved`, { headers: adminHeaders })).json();
  expect(approved.content_hash).toBe(content_hash);
  expect(sha256(canonical(approved.document))).toBe(content_hash);
  const { hash, ...resources } = approved.resources;
  expect(sha256(canonical(resources))).toBe(hash);
  expect(resources.definitions.tools).toEqual([definition]);

  // Moving a node is a layout-only revision: still approved, still handed off.
  const head = await (await page.request.get(`/api/plans/${id}`)).json();
  const moved = await page.request.put(`/api/plans/${id}`, {
    data: { base_revision: head.revision, plan: head.plan, view: { positions: { list: { x: 420, y: 80 } } } },
  });
  expect(await moved.json()).toEqual({ revision: 2, content_hash, layout_only: true });
  expect(await handOff(page.request, id)).toEqual({ status: 200, code: undefined, revision: 2 });
  await page.goto(`/plans/${id}/revisions`);
  await expect(page.getByRole('row', { name: /Revision 2/ })).toContainText('layout only');

  // Rewriting the tool's schema voids the approval: 409 naming the resource, shown on the plan and in the next review.
  expect((await page.request.put(`/api/registry/tools/${tool}`, { data: { ...definition, input_schema: { type: 'object', properties: {} } } })).status()).toBe(200);
  const stale = await page.request.get(`/api/plans/${id}/approved`, { headers: adminHeaders });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).error).toMatchObject({ code: 'stale', reason: 'registry_changed', resources: [{ kind: 'tools', key: tool, change: 'changed' }] });
  await page.goto(`/plans/${id}`);
  await expect(page.getByRole('status').filter({ hasText: 'The approval of revision 1 is stale' })).toContainText(`tools/${tool} (changed)`);
  await page.goto(`/plans/${id}/review`);
  await expect(page.getByRole('list', { name: 'Changed resources' })).toContainText(`Changed tools/${tool}`);
  await approver.context().close();
});
