import { expect, test } from './fixtures';

// A save answers what the editor page shows about the new head (status, content hash, what
// saving would void), so the page is updated in place: the plan is not sent again.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

test('saving a plan in review updates the header from the answer, without rendering the page again', async ({ page, api, editor }) => {
  const { id } = await api.create('Saved in place', plan);
  await api.submitted(id);
  // The first layout runs in a worker; edits start once the nodes have settled.
  await editor.open(id, { showing: 'Summarise' });
  await expect(page.getByText('in review', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Submit r\d+ for review$/ })).toHaveCount(0);

  // A render of this page after the save (router.refresh) would fetch its RSC payload; link prefetches are not renders.
  const rerenders: string[] = [];
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['rsc'] === '1' && !headers['next-router-prefetch'] && new URL(request.url()).pathname === `/plans/${id}`) rerenders.push(request.url());
  });
  await editor.describe('Summarise', 'Summarise briefly');
  await editor.save({ confirm: 'withdraw' });

  const head = await api.head(id);
  expect(head).toMatchObject({ revision: 2, status: 'draft' });
  await expect(page.getByText('draft', { exact: true })).toBeVisible();
  await expect(page.getByTitle(head.content_hash, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit r2 for review' })).toBeVisible();
  // Nothing stands to be voided any more: the banner is gone and the next save asks nothing.
  await expect(page.getByRole('status').filter({ hasText: 'saving will withdraw it from review' })).toHaveCount(0);
  expect(rerenders).toEqual([]);
});
