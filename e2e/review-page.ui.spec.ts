import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn } from './auth-support';

// The review page as an approver reads it before deciding: a replacement's fields against
// the task it replaces, a first revision's tasks with their fields, and the task table.
// The plans are made over the API as the editor (the browser state every UI test starts
// with); approver2 reads them, in a context of its own.

const OLD_INSTRUCTIONS = 'Summarise the shipments in one line.';
const NEW_INSTRUCTIONS = 'Summarise the shipments per facility, with totals and the three largest contaminants.';

async function approverPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, 'approver2');
  return page;
}

test('an approver sees a replaced task against the task it replaces, instructions included', async ({ page, browser, baseURL }) => {
  const created = await page.request.post('/api/plans', {
    data: {
      title: 'Replaced summary',
      plan: {
        planned_tasks: [
          { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
          { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'], instructions: OLD_INSTRUCTIONS },
        ],
      },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();

  // Revision 2 replaces `summarise` as the replanner does: a new id naming the old one in main_task_id.
  const head = await (await page.request.get(`/api/plans/${id}`)).json();
  const replacement = { task_id: 'summarise_v2', main_task_id: 'summarise', description: 'Summarise per facility', execution_type: 'llm', dependencies: ['fetch'], instructions: NEW_INSTRUCTIONS };
  const tasks = [...head.plan.planned_tasks.filter((t: { task_id: string }) => t.task_id !== 'summarise'), replacement];
  const saved = await page.request.put(`/api/plans/${id}`, { data: { base_revision: head.revision, plan: { ...head.plan, planned_tasks: tasks }, message: 'replan the summary' } });
  expect(saved.status()).toBe(200);
  expect((await page.request.post(`/api/plans/${id}/submit`, { data: {} })).status()).toBe(200);

  const approver = await approverPage(browser, baseURL!);
  await approver.goto(`/plans/${id}/review`);
  const changes = approver.getByRole('region', { name: 'Changes since revision 1' });
  const replaced = changes.getByRole('group', { name: 'summarise_v2 replaces summarise' });
  await expect(replaced.getByRole('term').filter({ hasText: 'instructions' })).toBeVisible();
  await expect(replaced.getByText(NEW_INSTRUCTIONS)).toBeVisible();
  await expect(replaced.getByText(OLD_INSTRUCTIONS)).toBeVisible();
  await expect(replaced.getByRole('term').filter({ hasText: 'description' })).toBeVisible();
  // A replacement is not also listed as an unrelated addition and removal.
  await expect(changes.getByRole('region', { name: 'Tasks added' })).toHaveCount(0);
  await expect(changes.getByRole('region', { name: 'Tasks removed' })).toHaveCount(0);

  // The task table holds revision 2's tasks with their fields; the canvas is tall; the decision stays.
  const table = approver.getByRole('table', { name: 'Tasks and their fields' });
  await expect(table.getByRole('row').filter({ hasText: 'summarise_v2' })).toContainText(NEW_INSTRUCTIONS);
  await expect(table.getByRole('row').filter({ hasText: 'Fetch shipments' })).toContainText('shipments_list');
  const canvas = await approver.getByRole('region', { name: 'Plan (read-only)' }).boundingBox();
  expect(canvas!.height).toBeGreaterThan(500);
  await expect(approver.getByRole('button', { name: 'Approve' })).toBeEnabled();
  await approver.context().close();
});

test('a first revision lists every task with its fields', async ({ page, browser, baseURL }) => {
  const created = await page.request.post('/api/plans', {
    data: {
      title: 'First revision fields',
      plan: {
        planned_tasks: [
          {
            task_id: 'fetch',
            description: 'Fetch shipments',
            execution_type: 'l2_task',
            parameters: { sub_type: 'tools', stage2: { uid: 'shipments_list', input_data: { limit: 14 } } },
            tool_id: 'shipments_list',
            arguments: { limit: 14 },
            estimate_data: { latency_ms: 1200 },
          },
          { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'], instructions: OLD_INSTRUCTIONS, convertor_code: 'return input.items.length;' },
        ],
      },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  expect((await page.request.post(`/api/plans/${id}/submit`, { data: {} })).status()).toBe(200);

  const approver = await approverPage(browser, baseURL!);
  await approver.goto(`/plans/${id}/review`);
  const first = approver.getByRole('region', { name: 'Revision 1: every task' });
  await expect(first).toContainText('first revision');
  const fetch = first.getByRole('group', { name: 'Task fetch' });
  await expect(fetch).toContainText('l2_task (kind: tool)');
  await expect(fetch).toContainText('shipments_list');
  await expect(fetch.getByRole('term').filter({ hasText: 'Stage 2 input (parameters.stage2)' })).toBeVisible();
  await expect(fetch).toContainText('"limit":14');
  await expect(fetch.getByRole('term').filter({ hasText: 'estimate_data' })).toBeVisible();
  const summarise = first.getByRole('group', { name: 'Task summarise' });
  await expect(summarise.getByText(OLD_INSTRUCTIONS)).toBeVisible();
  await expect(summarise).toContainText('return input.items.length;');
  await expect(summarise).toContainText('fetch');
  await expect(approver.getByRole('table', { name: 'Tasks and their fields' }).getByRole('row')).toHaveCount(3);
  await approver.context().close();
});
