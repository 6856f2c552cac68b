import type { Page } from '@playwright/test';
import { expect, test, type PlansApi } from './fixtures';

// The plan list at `/`: search, status filter, sort and paging all live in the URL's query
// string, so what is on screen is a link that can be shared.

const task = (task_id: string, dependencies: string[] = []) => ({ task_id, description: `Do ${task_id}`, execution_type: 'llm', dependencies });

/** A plan under exactly this title (the test sorts and searches by it), a chain of `taskCount` tasks. */
async function createPlan(api: PlansApi, title: string, taskCount: number): Promise<string> {
  const ids = Array.from({ length: taskCount }, (_, i) => `step${i}`);
  return (await api.create(title, { planned_tasks: ids.map((id, i) => task(id, i ? [ids[i - 1]] : [])) }, { exactTitle: true })).id;
}

/** The titles in the plan table, top to bottom. */
async function titles(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: /^Plans/ }).getByRole('row').getByRole('link').allInnerTexts();
}

test('searches, filters by status, sorts and pages the plan list from the query string', async ({ page, api }) => {
  const tag = `List${Date.now().toString(36)}`;
  await createPlan(api, `${tag} Alpha`, 2);
  const beta = await createPlan(api, `${tag} Beta`, 3);
  await api.submitted(beta, {});

  await page.goto('/');
  const search = page.getByRole('search', { name: 'Filter plans' });
  await search.getByRole('searchbox', { name: 'Search plans' }).fill(`${tag} alpha`);
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]q=List[^&]*alpha/);
  const table = page.getByRole('table', { name: /^Plans matching/ });
  await expect(table).toBeVisible();
  expect(await titles(page)).toEqual([`${tag} Alpha`]);
  const alpha = table.getByRole('row', { name: new RegExp(`${tag} Alpha`) });
  const headers = await table.getByRole('columnheader').allInnerTexts();
  const cells = alpha.getByRole('cell');
  await expect(cells.nth(headers.findIndex((h) => /tasks/i.test(h)))).toHaveText('2');
  await expect(cells.nth(headers.findIndex((h) => /author/i.test(h)))).toHaveText('editor');

  // Both plans, then only the one in review.
  await search.getByRole('searchbox', { name: 'Search plans' }).fill(tag);
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('table', { name: /^Plans matching/ }).getByRole('row')).toHaveCount(3);
  await search.getByRole('combobox', { name: 'Status' }).selectOption('in_review');
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/status=in_review/);
  await expect(page.getByRole('table', { name: /with status in review/ })).toBeVisible();
  expect(await titles(page)).toEqual([`${tag} Beta`]);
  await expect(page.getByRole('table', { name: /^Plans/ }).getByRole('row', { name: new RegExp(`${tag} Beta`) }).getByRole('cell', { name: '3', exact: true })).toBeVisible();

  // Sort by title, both ways.
  await search.getByRole('combobox', { name: 'Status' }).selectOption('');
  await search.getByRole('combobox', { name: 'Sort by' }).selectOption('title');
  await search.getByRole('combobox', { name: 'Order' }).selectOption('desc');
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('table', { name: /by title, Z to A/ })).toBeVisible();
  expect(await titles(page)).toEqual([`${tag} Beta`, `${tag} Alpha`]);
  await search.getByRole('combobox', { name: 'Order' }).selectOption('asc');
  await search.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('table', { name: /by title, A to Z/ })).toBeVisible();
  expect(await titles(page)).toEqual([`${tag} Alpha`, `${tag} Beta`]);

  // A shared link, one plan per page: the next page holds the other plan and is the last.
  await page.goto(`/?q=${tag}&sort=title&limit=1`);
  expect(await titles(page)).toEqual([`${tag} Alpha`]);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByRole('table', { name: /a later page/ })).toBeVisible();
  expect(await titles(page)).toEqual([`${tag} Beta`]);
  await expect(page.getByRole('link', { name: 'Next page' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'First page' })).toBeVisible();
});

test('a misspelt filter in a link is reported, not silently ignored', async ({ page }) => {
  await page.goto('/?stauts=draft');
  await expect(page.getByRole('alert').filter({ hasText: 'Unknown query parameter "stauts"' })).toBeVisible();
  await page.goto('/?cursor=nonsense');
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid cursor' })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Plans/ })).toHaveCount(0);
});

test('a plan link shows it is pending while the plan page loads, and the page then opens', async ({ page, api }) => {
  const title = `Pending${Date.now().toString(36)}`;
  const id = await createPlan(api, title, 2);
  await page.goto(`/?q=${title}`);
  // The plan page's server answer to the client navigation, held back for a second.
  let held = 0;
  await page.route(`**/plans/${id}**`, async (route) => {
    if (route.request().headers().rsc) {
      held += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await route.continue();
  });
  const link = page.getByRole('table', { name: /^Plans matching/ }).getByRole('link', { name: title });
  await link.click();
  // The spinner is for the eye only (aria-hidden): the link's name stays the plan's title.
  await expect(link.locator('.link-pending')).toBeVisible();
  await expect(link).toHaveAccessibleName(title);
  await expect(page).toHaveURL(new RegExp(`/plans/${id}(\\?|$)`));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  expect(held).toBeGreaterThan(0);
});
