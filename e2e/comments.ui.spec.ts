import type { Page } from '@playwright/test';
import { adminHeaders } from './auth-support';
import { axeViolations, expect, PlanEditor, test } from './fixtures';

// Comments on tasks as two people see them: an approver (signed in here) writes threads on
// the review page and in the editor and requests changes; the editor (the default browser
// state) sees the badge on the node, the threads in the inspector and the decision's banner,
// replies, resolves and reopens.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise by facility', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

/** The page's content, below the site header (the header is the accessibility sweep's to check, with its own parts). */
async function noViolations(page: Page, where: string) {
  expect(await axeViolations(page, '#main'), where).toEqual([]);
}

test('an approver\'s comments reach the editor as a badge, threads and a request-changes banner that links the task', async ({ page, api, editor, reviewAs }) => {
  test.setTimeout(120_000);
  const { id } = await api.create('Shipments with comments', plan);
  await api.submitted(id, {});

  // On the review page, the approver starts a thread on "Fetch shipments".
  const review = await reviewAs('approver');
  const approver = review.page;
  const approverEditor = new PlanEditor(approver);
  await review.open(id);
  const comments = review.comments;
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
  await approverEditor.select('Fetch shipments');
  await approverEditor.inspector.getByRole('textbox', { name: 'New thread on Fetch shipments' }).fill('Also: page through all results.');
  await approverEditor.inspector.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(approverEditor.node('Fetch shipments').getByRole('img', { name: '2 open comments' })).toBeVisible();

  // Then requests changes, naming the other task in the comment.
  await review.open(id);
  await review.decide('Request changes', 'Please give summarise a word limit.');
  // The decision's comment stays with the decision; it opens no thread on the plan.
  await expect(review.decisions).toContainText('Please give summarise a word limit.');
  await expect(review.comments.getByRole('list', { name: 'Comments on the plan' })).toHaveCount(0);

  // The editor sees the badge on the node, and the banner.
  await page.goto(`/plans/${id}`);
  await expect(editor.node('Fetch shipments').getByRole('img', { name: '2 open comments' })).toBeVisible();
  await expect(editor.node('Summarise by facility').getByRole('img')).toHaveCount(0);
  const banner = page.getByRole('region', { name: 'approver requested changes to revision 1' });
  await expect(banner).toContainText('Please give summarise a word limit.');
  // Named in the text (summarise), and where the approver has open threads (fetch).
  const about = banner.getByRole('navigation', { name: 'Tasks the decision names' });
  await expect(about.getByRole('link')).toHaveText(['Summarise by facility', 'Fetch shipments']);
  await noViolations(page, 'the editor with a decision banner and comment badges');

  // A link in the banner selects its task.
  await about.getByRole('link', { name: 'Summarise by facility' }).click();
  await expect(editor.inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise by facility');
  await expect(page).toHaveURL(/[?&]task=summarise\b/);
  await expect(editor.inspector).toContainText('No comments on this task.');

  // The other link: the fetch task, with both threads in the inspector.
  await about.getByRole('link', { name: 'Fetch shipments' }).click();
  await expect(editor.inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Fetch shipments');
  await expect(editor.inspector.getByRole('heading', { name: 'Comments (2 open)' })).toBeVisible();
  const threads = editor.inspector.getByRole('list', { name: 'Comments on Fetch shipments' });
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
  await expect(editor.node('Fetch shipments').getByRole('img', { name: '1 open comment' })).toBeVisible();
  await expect(editor.inspector.getByRole('heading', { name: 'Comments (1 open)' })).toBeVisible();

  // Reopened, it counts again.
  await first.getByRole('button', { name: 'Reopen thread' }).click();
  await expect(first.getByRole('heading', { name: 'Thread by approver on r1, open' })).toBeVisible();
  await expect(editor.node('Fetch shipments').getByRole('img', { name: '2 open comments' })).toBeVisible();

  // The approver, back on the review page, sees the reply.
  await approver.reload();
  await expect(review.comments).toContainText('The shipments list API, v2.');
});

test('a viewer reads threads, also one on a task removed since, but has no controls to write, resolve or reopen them', async ({ page, api, signedIn }) => {
  const username = `comments-viewer-${Date.now().toString(36)}`;
  expect((await page.request.post('/api/users', { headers: adminHeaders, data: { username, password: 'viewer-pass-123', role: 'viewer' } })).status()).toBe(201);
  const { id } = await api.create('Read-only comments', plan);
  const posted = await page.request.post(`/api/plans/${id}/comments`, { data: { task_id: 'fetch', body: 'Check the rate limit.', revision: 1 } });
  expect(posted.status()).toBe(201);
  expect((await page.request.post(`/api/plans/${id}/comments`, { data: { task_id: 'summarise', body: 'Is this step needed?', revision: 1 } })).status()).toBe(201);
  const removed = await api.save(id, { base_revision: 1, plan: { planned_tasks: [plan.planned_tasks[0]] }, message: 'no summary' });
  expect(removed.status()).toBe(200);

  const viewer = await signedIn(username, 'viewer-pass-123');
  const readOnly = new PlanEditor(viewer);
  await viewer.goto(`/plans/${id}`);
  await expect(readOnly.node('Fetch shipments').getByRole('img', { name: '1 open comment' })).toBeVisible();
  // With nothing selected, the inspector lists the thread whose task revision 2 removed.
  const gone = readOnly.inspector.getByRole('region', { name: 'On removed tasks (1 open)' });
  await expect(gone).toContainText('on a removed task: summarise');
  await expect(gone).toContainText('Is this step needed?');
  await readOnly.node('Fetch shipments').click();
  await expect(readOnly.inspector).toContainText('Check the rate limit.');
  await expect(readOnly.inspector.getByRole('button', { name: 'Resolve thread' })).toHaveCount(0);
  await expect(readOnly.inspector.getByRole('textbox', { name: /^(New thread|Reply)/ })).toHaveCount(0);
  expect((await viewer.request.post(`/api/plans/${id}/comments`, { data: { body: 'Me too', revision: 1 } })).status()).toBe(403);
});
