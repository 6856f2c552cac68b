import { expect, test } from '@playwright/test';

// The registry page as an editor uses it: read the catalogue, fix one resource's JSON,
// see a bad edit refused with the reason.

test('an editor edits a tool in the registry, and an invalid edit is refused with the reason', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Registry' }).click();
  await expect(page.getByRole('heading', { name: 'Resource registry' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'inspections_list' })).toBeVisible();

  await page.getByRole('button', { name: 'Edit inspections_list' }).click();
  const json = page.getByRole('textbox', { name: 'JSON of inspections_list' });
  const resource = JSON.parse(await json.inputValue());
  await json.fill(JSON.stringify({ ...resource, default_latency_ms: -5 }, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'default_latency_ms' })).toBeVisible();

  await json.fill(JSON.stringify({ ...resource, description: 'Query inspections by facility and date' }, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: 'Query inspections by facility and date' })).toBeVisible();
});
