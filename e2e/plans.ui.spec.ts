import { expect, test } from '@playwright/test';

test('the plan list shows the demo plans and opens one as a graph', async ({ page }) => {
  // Searched for: the list shows one page, and other specs' plans may fill the first.
  await page.goto('/?q=%28seed%2000');
  await expect(page.getByRole('heading', { level: 1, name: 'Plans' })).toBeVisible();
  const plans = page.getByRole('table', { name: /Plans/ });
  await expect(plans.getByRole('link', { name: 'Summarise research papers (seed 000)' })).toBeVisible();
  await expect(plans.getByRole('link', { name: 'AgentScope seeded tasks (seed 004)' })).toBeVisible();
  await expect(plans.getByRole('row').nth(1).getByText('draft')).toBeVisible();

  await plans.getByRole('link', { name: 'Summarise research papers (seed 000)' }).click();
  await expect(page).toHaveURL(/\/plans\/[0-9a-z]+(\?.*)?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Summarise research papers (seed 000)' })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Task Fetch the research papers/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Outline' }).getByRole('button')).toHaveCount(7);
  await expect(page.getByRole('region', { name: 'Issues' })).toContainText('No issues');
});

test('an unknown plan link shows a not-found page', async ({ page }) => {
  const response = await page.goto('/plans/doesnotexist');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: /not found|404/i })).toBeVisible();
});
