import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Links that survive: a shared link keeps its path and query through sign-in, and
// "Copy link" offers the latest revision and this revision, each saying what it opens.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'papers_search' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

/** A link's path and `task`, whatever order the editor left `task` and `view` in. */
function expectLink(href: string | null, origin: string, path: string, task: string) {
  const url = new URL(href ?? '', 'http://not-a-link.invalid');
  expect(url.origin).toBe(origin);
  expect(url.pathname).toBe(path);
  expect(url.searchParams.get('task')).toBe(task);
}

/**
 * Signs in through the form; where the sign-in action sent the browser (its redirect).
 * The landing is checked by its redirect: the router then opens the page client-side.
 * A click before hydration posts the form natively, and the action answers with a 303
 * and `Location` instead of `x-action-redirect`; both are the same redirect.
 */
async function signInAndGetRedirect(page: Page, username: string, password: string): Promise<URL> {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password').fill(password);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in'),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ]);
  const headers = await answer.allHeaders();
  const redirect = headers['x-action-redirect'] ?? headers['location'];
  expect(redirect, 'the sign-in action redirects').toBeTruthy();
  return new URL(redirect.split(';')[0], 'http://site.invalid');
}

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a shared link to a task keeps its path and query through sign-in and opens that task', async ({ page, adminApi }) => {
    const { id } = await adminApi.create('Links test plan', plan);
    const link = `/plans/${id}?task=summarise&view=10,20,0.800`;
    await page.goto(link);

    await expect(page).toHaveURL(/\/sign-in\?next=/);
    const next = new URL(new URL(page.url()).searchParams.get('next')!, 'http://site.invalid');
    expect(next.pathname).toBe(`/plans/${id}`);
    expect(next.searchParams.get('task')).toBe('summarise');
    expect(next.searchParams.get('view')).toBe('10,20,0.800');

    // Demo users are on for this server: the page says so, and lists them.
    const demo = page.getByRole('region', { name: 'Demo accounts' });
    await expect(demo.getByRole('cell', { name: 'approver2', exact: true })).toBeVisible();
    await expect(demo.getByRole('cell', { name: 'editor-demo-pass', exact: true })).toBeVisible();

    // A refused attempt keeps the username.
    await page.getByRole('textbox', { name: 'Username' }).fill('approver2');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong username or password.' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Username' })).toHaveValue('approver2');

    const landing = await signInAndGetRedirect(page, 'approver2', 'approver2-demo-pass');
    expect(landing.pathname).toBe(`/plans/${id}`);
    expect(landing.searchParams.get('task')).toBe('summarise');
    expect(landing.searchParams.get('view')).toBe('10,20,0.800');
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    await expect(inspector).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/plans/${id}`);
    // Straight after sign-in, the task of the link is the one selected.
    await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');
  });

  test('a shared link to a revision keeps its query through sign-in', async ({ page, adminApi }) => {
    const { id } = await adminApi.create('Links test plan', plan);
    await page.goto(`/plans/${id}/r/1?task=fetch`);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/plans/${id}/r/1?task=fetch`);
    const landing = await signInAndGetRedirect(page, 'approver', 'approver-demo-pass');
    expect(`${landing.pathname}${landing.search}`).toBe(`/plans/${id}/r/1?task=fetch`);
    await expect(page.getByText('Revision 1 · read-only')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/plans/${id}/r/1`);
  });
});

test.describe('copy link', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('offers the latest revision and this revision, each opening the selected task', async ({ page, baseURL, adminApi }) => {
    const { id } = await adminApi.create('Links test plan', plan);
    const edited = structuredClone(plan);
    edited.planned_tasks[1].description = 'Summarise the papers';
    const saved = await adminApi.save(id, { base_revision: 1, plan: edited, message: 'clearer' });
    expect(saved.ok()).toBeTruthy();
    const origin = new URL(baseURL!).origin;
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    // Revision 1 honours ?task= too.
    await page.goto(`/plans/${id}/r/1?task=summarise`);
    await expect(page.getByText('Revision 1 · read-only')).toBeVisible();
    await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');

    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    const links = page.getByRole('group', { name: 'Links to this plan' });
    await expect(links.getByRole('link')).toHaveCount(2);
    expectLink(await links.getByRole('link').nth(0).getAttribute('href'), origin, `/plans/${id}`, 'summarise');
    expectLink(await links.getByRole('link').nth(1).getAttribute('href'), origin, `/plans/${id}/r/1`, 'summarise');
    await links.getByRole('button', { name: 'Copy link to revision 1' }).click();
    await expect(page.getByText('Link copied: it opens revision 1, which never changes, with this task selected')).toBeVisible();
    const revisionLink = await clipboard();
    expectLink(revisionLink, origin, `/plans/${id}/r/1`, 'summarise');

    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await links.getByRole('button', { name: 'Copy link to the latest revision' }).click();
    await expect(page.getByText('Link copied: it opens the latest saved revision of this plan, with this task selected')).toBeVisible();
    const latestLink = await clipboard();
    expectLink(latestLink, origin, `/plans/${id}`, 'summarise');

    // The latest link opens revision 2 at the task; its own "this revision" link names revision 2.
    await page.goto(latestLink);
    await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise the papers');
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await expect(links.getByRole('button', { name: 'Copy link to revision 2' })).toBeVisible();
    expectLink(await links.getByRole('link').nth(1).getAttribute('href'), origin, `/plans/${id}/r/2`, 'summarise');
    await page.keyboard.press('Escape');
    await expect(links).toHaveCount(0);

    // The revision link still opens revision 1 as it was.
    await page.goto(revisionLink);
    await expect(page.getByText('Revision 1 · read-only')).toBeVisible();
    await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');
  });
});
