import { expect, test } from './fixtures';

// The app's own lists (a plan's revisions and history, the review queue) read one page at a
// time, with the REST lists' limit and cursor in the query string.

const plan = { planned_tasks: [{ task_id: 'a', description: 'Do a', execution_type: 'llm' }] };

test('pages a plan’s revisions, keeping the comparison, and its history; a cursor that is not the list’s is a message', async ({ page, api }) => {
  const { id } = await api.create('Paged', plan);
  expect((await api.saveTasks(id, (t) => ({ ...t, description: 'Do a again' }), 'Second')).status()).toBe(200);
  expect((await api.saveTasks(id, (t) => ({ ...t, description: 'Do a once more' }), 'Third')).status()).toBe(200);

  await page.goto(`/plans/${id}/revisions?from=1&to=3&limit=2`);
  const revisions = page.getByRole('table', { name: 'Revisions, oldest first' }).getByRole('link');
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expect(revisions).toHaveText(['Revision 1', 'Revision 2']);
  await expect(pages.getByRole('link', { name: 'First page' })).toHaveCount(0);
  await pages.getByRole('link', { name: 'Next page' }).click();
  await expect(revisions).toHaveText(['Revision 3']);
  await expect(page.getByRole('heading', { name: 'Changes from revision 1 to 3' })).toBeVisible();
  await expect(pages.getByRole('link', { name: 'Next page' })).toHaveCount(0);
  await pages.getByRole('link', { name: 'First page' }).click();
  await expect(revisions).toHaveText(['Revision 1', 'Revision 2']);

  await page.goto(`/plans/${id}/history?limit=2`);
  const events = page.getByRole('list', { name: 'Audit events, oldest first' }).getByRole('listitem');
  await expect(events).toHaveCount(2);
  await expect(events.first()).toContainText('Created');
  await pages.getByRole('link', { name: 'Next page' }).click();
  await expect(events).toHaveCount(1);
  await expect(events.first()).toContainText('Saved a new revision');

  await page.goto(`/plans/${id}/history?cursor=not-a-cursor`);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid cursor' })).toBeVisible();
  await page.getByRole('link', { name: 'Show the first page' }).click();
  await expect(events).toHaveCount(3);
});

test('pages the review queue', async ({ page, api }) => {
  for (const title of ['Queued one', 'Queued two']) await api.submitted((await api.create(title, plan)).id);
  await page.goto('/reviews?limit=1');
  const queue = page.getByRole('table', { name: 'Plans in review, oldest first' });
  const first = await queue.getByRole('link').first().innerText();
  await expect(queue.getByRole('link')).toHaveCount(1);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/[?&]cursor=/);
  await expect(queue.getByRole('link')).toHaveCount(1);
  await expect(queue.getByRole('link')).not.toHaveText(first);
});
