import { expect, test } from '@playwright/test';

// Stage 1 and Stage 2 in the browser with the offline rule-based planner: a job becomes a
// plan in the editor, and one task gets its executable input.

test('a plan is created from a goal, opens in the editor, and Stage 2 fills in one task', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'New plan' }).click();
  await page.getByRole('textbox', { name: 'Task description' }).fill('Get contaminated shipments and their contaminant details');
  await page.getByLabel('Today').fill('2025-10-12');
  await expect(page.getByRole('combobox', { name: 'Planner' })).toContainText('Rule-based planner');
  await page.getByRole('button', { name: 'Create plan' }).click();

  await expect(page).toHaveURL(/\/plans\/[a-z0-9]+(\?.*)?$/);
  await expect(page.getByText(/^Planned by Rule-based planner/)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Task Call contaminants_list' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();

  await page.getByRole('group', { name: 'Task Call shipments_list' }).click();
  const stage2 = page.getByRole('region', { name: 'Stage 2' });
  await stage2.getByRole('button', { name: 'Run Stage 2' }).click();
  await expect(stage2.getByLabel('Stage 2 uid')).toHaveText('shipments_list');
  await expect(stage2.getByLabel('Stage 2 input_data')).toContainText('"has_contaminants": true');

  await page.getByRole('textbox', { name: 'Revision message' }).fill('stage 2 for the shipments');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await page.reload();
  await page.getByRole('group', { name: 'Task Call shipments_list' }).click();
  await expect(page.getByRole('region', { name: 'Stage 2' }).getByLabel('Stage 2 uid')).toHaveText('shipments_list');
});
