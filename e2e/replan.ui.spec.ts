import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminHeaders, signIn } from './auth-support';

// Replanning selected tasks on an approved plan: two tasks selected on the canvas, a
// proposal reviewed as a diff, one replacement accepted. The plan moves to a new
// revision, the approval no longer stands, and undo takes the replacement back.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise the shipments', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'report', description: 'Write the report', execution_type: 'llm', dependencies: ['summarise'] },
  ],
};

async function handOff(request: APIRequestContext, id: string) {
  const response = await request.get(`/api/plans/${id}/approved`, { headers: adminHeaders });
  return { status: response.status(), code: ((await response.json()) as { error?: { code: string } }).error?.code };
}

test('select two tasks, replan them, accept one replacement, and find the plan at a new revision with its approval voided', async ({ page, browser, baseURL }) => {
  const { id } = await (await page.request.post('/api/plans', { data: { title: 'Shipments to replan', plan } })).json();
  const submitted = await (await page.request.post(`/api/plans/${id}/submit`)).json();
  // A decision needs a person (the admin token's account is a service account): the approver, signed in.
  const approverContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const approverPage = await approverContext.newPage();
  await signIn(approverPage, 'approver');
  const approved = await approverPage.request.post(`/api/plans/${id}/approve`, { data: { revision: submitted.revision, content_hash: submitted.content_hash } });
  expect(approved.status()).toBe(200);
  await approverContext.close();
  expect(await handOff(page.request, id)).toEqual({ status: 200, code: undefined });

  await page.goto(`/plans/${id}`);
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();
  await page.getByRole('group', { name: 'Task Summarise the shipments' }).click();
  await page.getByRole('group', { name: 'Task Write the report' }).click({ modifiers: ['Control'] });
  await page.getByRole('button', { name: 'Replan selected…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Replan selected tasks' });
  await expect(dialog).toContainText('Marked for replanning: Summarise the shipments, Write the report');
  await dialog.getByRole('textbox', { name: 'Instructions (optional)' }).fill('Keep it under 200 words.');
  await dialog.getByRole('button', { name: 'Propose replacements' }).click();

  const summarise = dialog.getByRole('region', { name: 'Replacement for Summarise the shipments' });
  const report = dialog.getByRole('region', { name: 'Replacement for Write the report' });
  await expect(summarise.getByRole('table', { name: 'Fields changed for Summarise the shipments' })).toContainText('Keep it under 200 words.');
  await expect(summarise).toContainText('+ dependency fetch → summarise-r1');
  await expect(summarise).toContainText('− dependency summarise → report');
  await report.getByRole('checkbox', { name: 'Accept the replacement for Write the report' }).uncheck();
  await dialog.getByRole('button', { name: 'Apply 1 accepted' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'saved as revision 2' })).toBeVisible();
  await expect(page.getByText(/^Revision 2/)).toBeVisible();

  const head = await (await page.request.get(`/api/plans/${id}`)).json();
  expect(head.revision).toBe(2);
  expect(head.status).toBe('draft');
  const tasks = Object.fromEntries((head.plan.planned_tasks as Array<{ task_id: string; main_task_id: string; dependencies: string[]; description: string }>).map((t) => [t.task_id, t]));
  expect(Object.keys(tasks).sort()).toEqual(['fetch', 'report', 'summarise-r1']);
  expect(tasks['summarise-r1']).toMatchObject({ main_task_id: 'summarise', dependencies: ['fetch'] });
  expect(tasks['summarise-r1'].description).toContain('Keep it under 200 words.');
  expect(tasks.report).toMatchObject({ description: 'Write the report', dependencies: ['summarise-r1'] });
  expect(await handOff(page.request, id)).toEqual({ status: 409, code: 'stale' });

  // The replacement was one step: undo brings the replaced task back, as an unsaved change.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('group', { name: 'Task Summarise the shipments' })).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
});
