import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminHeaders, signIn } from './auth-support';

// Comments on tasks as two people see them: an approver (signed in here) writes threads on
// the review page and in the editor and requests changes; the editor (the default browser
// state) sees the badge on the node, the threads in the inspector and the decision's banner,
// replies, resolves and reopens.

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise by facility', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

async function approverPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, 'approver');
  return page;
}

/** The page's content, below the site header (the header is the accessibility sweep's to check, with its own parts). */
async function noViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).include('#main').withTags(WCAG_22_AA).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), where).toEqual([]);
}

const inspector = (page: Page) => page.getByRole('complementary', { name: 'Inspector' });
const node = (page: Page, label: string) => page.getByRole('group', { name: `Task ${label}` });

test('an approver\'s comments reach the editor as a badge, threads and a request-changes banner that links the task', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const created = await page.request.post('/api/plans', { data: { title: 'Shipments with comments', plan } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  expect((await page.request.post(`/api/plans/${id}/submit`, { data: {} })).status()).toBe(200);

  // On the review page, the approver starts a thread on "Fetch shipments".
  const approver = await approverPage(browser, baseURL!);
  await approver.goto(`/plans/${id}/review`);
  const comments = approver.getByRole('region', { name: 'Comments' });
  await expect(comments).toContainText('0 threads, 0 open');
  // The task is typed (a plan can hold thousands): an unknown one cannot be sent.
  const aboutField = comments.getByRole('combobox', { name: 'About' });
  await aboutField.fill('fetc');
  await expect(aboutField).toHaveAccessibleDescription(/No task has the id or name “fetc”/);
  await expect(comments.getByRole('button', { name: 'Add comment' })).toBeDisabled();
  await aboutField.fill('fetch');
  await expect(aboutField).toHaveAccessibleDescription('On task Fetch shipments (fetch).');
  const text = comments.getByRole('textbox', { name: 'New thread on Fetch shipments' });
  // Ctrl+Enter sends, but not an empty comment, and a second press while sending adds nothing.
  await text.press('Control+Enter');
  await text.fill('Which endpoint does this call, @editor?');
  await text.press('Control+Enter');
  await text.press('Control+Enter');
  const onFetch = comments.getByRole('list', { name: 'Comments on Fetch shipments' });
  await expect(onFetch.getByRole('heading', { name: 'Thread by approver on r1, open' })).toBeVisible();
  await expect(onFetch).toContainText('Which endpoint does this call, @editor?');
  await expect(comments).toContainText('1 thread, 1 open');
  await expect(text).toHaveValue('');
  await approver.reload();
  await expect(comments).toContainText('1 thread, 1 open');
  await noViolations(approver, 'the review page with a thread');

  // In the editor, the approver adds a second thread on the same task from the inspector.
  await approver.goto(`/plans/${id}`);
  await node(approver, 'Fetch shipments').click();
  await inspector(approver).getByRole('textbox', { name: 'New thread on Fetch shipments' }).fill('Also: page through all results.');
  await inspector(approver).getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(node(approver, 'Fetch shipments').getByRole('img', { name: '2 open comments' })).toBeVisible();

  // Then requests changes, naming the other task in the comment.
  await approver.goto(`/plans/${id}/review`);
  await approver.getByRole('textbox', { name: 'Comment' }).fill('Please give summarise a word limit.');
  await approver.getByRole('button', { name: 'Request changes' }).click();
  await expect(approver.getByRole('list', { name: 'Decisions' })).toContainText('Please give summarise a word limit.');
  // The decision's comment is also a thread on the plan, which can be answered and resolved.
  const onPlan = approver.getByRole('region', { name: 'Comments' }).getByRole('list', { name: 'Comments on the plan' });
  await expect(onPlan.getByRole('heading', { name: 'Thread by approver on r1, open' })).toBeVisible();
  await expect(onPlan).toContainText('Please give summarise a word limit.');

  // The editor sees the badge on the node, and the banner.
  await page.goto(`/plans/${id}`);
  await expect(node(page, 'Fetch shipments').getByRole('img', { name: '2 open comments' })).toBeVisible();
  await expect(node(page, 'Summarise by facility').getByRole('img')).toHaveCount(0);
  const banner = page.getByRole('region', { name: 'approver requested changes to revision 1' });
  await expect(banner).toContainText('Please give summarise a word limit.');
  // Named in the text (summarise), and where the approver has open threads (fetch).
  const about = banner.getByRole('navigation', { name: 'Tasks the decision names' });
  await expect(about.getByRole('link')).toHaveText(['Summarise by facility', 'Fetch shipments']);
  await noViolations(page, 'the editor with a decision banner and comment badges');

  // A link in the banner selects its task.
  await about.getByRole('link', { name: 'Summarise by facility' }).click();
  await expect(inspector(page).getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise by facility');
  await expect(page).toHaveURL(/[?&]task=summarise\b/);
  await expect(inspector(page)).toContainText('No comments on this task.');

  // The other link: the fetch task, with both threads in the inspector.
  await about.getByRole('link', { name: 'Fetch shipments' }).click();
  await expect(inspector(page).getByRole('textbox', { name: 'Description' })).toHaveValue('Fetch shipments');
  await expect(inspector(page).getByRole('heading', { name: 'Comments (2 open)' })).toBeVisible();
  const threads = inspector(page).getByRole('list', { name: 'Comments on Fetch shipments' });
  await expect(threads.getByRole('article')).toHaveCount(2);
  const first = threads.getByRole('article').filter({ hasText: 'Which endpoint does this call' });
  await expect(first.getByRole('heading', { name: 'Thread by approver on r1, open' })).toBeVisible();
  await noViolations(page, 'the editor with a task\'s threads in the inspector');

  // The editor replies, then resolves the thread: the badge counts one open thread.
  await first.getByRole('textbox', { name: 'Reply to approver\'s thread' }).fill('The shipments list API, v2.');
  await first.getByRole('button', { name: 'Reply' }).click();
  await expect(first.getByRole('list', { name: 'Comments in approver\'s thread' }).getByRole('listitem')).toHaveCount(2);
  await expect(first).toContainText('The shipments list API, v2.');
  await first.getByRole('button', { name: 'Resolve thread' }).click();
  await expect(first.getByRole('heading', { name: 'Thread by approver on r1, resolved by editor' })).toBeVisible();
  await expect(node(page, 'Fetch shipments').getByRole('img', { name: '1 open comment' })).toBeVisible();
  await expect(inspector(page).getByRole('heading', { name: 'Comments (1 open)' })).toBeVisible();

  // Reopened, it counts again.
  await first.getByRole('button', { name: 'Reopen thread' }).click();
  await expect(first.getByRole('heading', { name: 'Thread by approver on r1, open' })).toBeVisible();
  await expect(node(page, 'Fetch shipments').getByRole('img', { name: '2 open comments' })).toBeVisible();

  // The approver, back on the review page, sees the reply.
  await approver.reload();
  await expect(approver.getByRole('region', { name: 'Comments' })).toContainText('The shipments list API, v2.');
  await approver.context().close();
});

test('a viewer reads threads, also one on a task removed since, but has no controls to write, resolve or reopen them', async ({ page, browser, baseURL, playwright }) => {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
  const username = `comments-viewer-${Date.now().toString(36)}`;
  expect((await admin.post('/api/users', { data: { username, password: 'viewer-pass-123', role: 'viewer' } })).status()).toBe(201);
  const { id } = await (await page.request.post('/api/plans', { data: { title: 'Read-only comments', plan } })).json();
  const posted = await page.request.post(`/api/plans/${id}/comments`, { data: { task_id: 'fetch', body: 'Check the rate limit.', revision: 1 } });
  expect(posted.status()).toBe(201);
  expect((await page.request.post(`/api/plans/${id}/comments`, { data: { task_id: 'summarise', body: 'Is this step needed?', revision: 1 } })).status()).toBe(201);
  const removed = await page.request.put(`/api/plans/${id}`, { data: { base_revision: 1, plan: { planned_tasks: [plan.planned_tasks[0]] }, message: 'no summary' } });
  expect(removed.status()).toBe(200);

  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await signIn(viewer, username, 'viewer-pass-123');
  await viewer.goto(`/plans/${id}`);
  await expect(node(viewer, 'Fetch shipments').getByRole('img', { name: '1 open comment' })).toBeVisible();
  // With nothing selected, the inspector lists the thread whose task revision 2 removed.
  const gone = inspector(viewer).getByRole('region', { name: 'On removed tasks (1 open)' });
  await expect(gone).toContainText('on a removed task: summarise');
  await expect(gone).toContainText('Is this step needed?');
  await node(viewer, 'Fetch shipments').click();
  await expect(inspector(viewer)).toContainText('Check the rate limit.');
  await expect(inspector(viewer).getByRole('button', { name: 'Resolve thread' })).toHaveCount(0);
  await expect(inspector(viewer).getByRole('textbox', { name: /^(New thread|Reply)/ })).toHaveCount(0);
  expect((await viewer.request.post(`/api/plans/${id}/comments`, { data: { body: 'Me too', revision: 1 } })).status()).toBe(403);
  await Promise.all([context.close(), admin.dispose()]);
});
