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

async function editDescription(page: Page, from: string, to: string, message: string) {
  // The first layout runs in a worker and stores positions; edit once it has settled.
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();
  await page.getByRole('group', { name: `Task ${from}` }).click();
  await page.getByRole('textbox', { name: 'Description' }).fill(to);
  await page.getByRole('textbox', { name: 'Description' }).blur();
  await page.getByRole('textbox', { name: 'Revision message' }).fill(message);
  await page.getByRole('button', { name: 'Save' }).click();
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
  await editDescription(page, 'Summarise', 'Summarise by facility', 'group by facility');
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
