import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures';

// Re-review as on GitHub: the approver who asked for changes comes back to exactly the fix
// made since, the editor asks the same reviewers again, the review request is done once
// answered, and approving over open comment threads is a choice made knowingly. The editor
// is the browser state every UI test starts with; the approver signs in in a context of its own.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

const itemsAbout = (page: Page, title: string) => page.getByRole('list', { name: 'Inbox items' }).getByRole('listitem').filter({ hasText: title });

test('after requesting changes, the approver sees exactly the fix since their review, and can compare with any revision', async ({ page, api, editor, reviewAs }) => {
  // Two people act in turn, across five page loads each.
  test.setTimeout(120_000);
  const { id, title } = await api.create('Re-reviewed shipments', plan);
  // Revision 2 changes fetch (an earlier change the approver has no need to see again); revision 3 is submitted to the approver by name.
  expect((await api.saveTasks(id, (task) => (task.task_id === 'fetch' ? { ...task, description: 'Fetch recent shipments' } : task), 'recent only')).status()).toBe(200);
  expect((await api.saveTasks(id, (task) => (task.task_id === 'fetch' ? { ...task, description: 'Fetch last week’s shipments' } : task), 'last week')).status()).toBe(200);
  await api.submitted(id, { reviewers: ['approver'] });

  // The approver opens the request from the inbox and asks for changes on revision 3.
  const review = await reviewAs('approver');
  const approver = review.page;
  await approver.goto('/inbox');
  const requested = itemsAbout(approver, title);
  await expect(requested).toContainText('Review requested');
  await expect(requested).toContainText('Unread');
  await requested.getByRole('link', { name: `Review “${title}”` }).click();
  await expect(approver.getByRole('heading', { name: 'Changes since revision 1' })).toBeVisible();
  const comment = 'Summarise per facility, please.';
  await review.decide('Request changes', comment);
  const decision = approver.getByRole('region', { name: 'Decision', exact: true });
  await expect(decision.getByRole('status').filter({ hasText: 'You requested changes to revision 3.' })).toBeVisible();
  await expect(decision).not.toContainText('Only a plan in review can be decided on');
  // The comment stays with the decision; it opens no comment thread.
  await expect(review.decisions.getByRole('listitem').filter({ hasText: 'changes requested' })).toContainText(comment);
  await expect(review.comments).not.toContainText(comment);

  // Answered, the review request is done: no longer unread.
  await approver.goto('/inbox');
  await expect(itemsAbout(approver, title)).toHaveCount(1);
  await expect(itemsAbout(approver, title)).not.toContainText('Unread');

  // The editor fixes one task in revision 4 and re-requests review from the same reviewer.
  await editor.open(id, { showing: 'Summarise' });
  await editor.describe('Summarise', 'Summarise per facility');
  await editor.save({ message: 'per facility' });
  const again = page.getByRole('button', { name: 'Re-request review' });
  await expect(again).toHaveAccessibleDescription('of r4 from approver');
  await again.click();
  await expect(page.getByText('in review', { exact: true })).toBeVisible();

  // The approver is asked again, and the review shows only what changed since their review.
  await approver.goto('/inbox');
  const askedAgain = itemsAbout(approver, title).filter({ hasText: 'again' });
  await expect(askedAgain).toContainText(`editor asked you to review r4 of “${title}” again.`);
  await expect(askedAgain).toContainText('Unread');
  await askedAgain.getByRole('link', { name: `Review “${title}”` }).click();
  const sinceReview = approver.getByRole('region', { name: 'Changes since your last review (revision 3)' });
  await expect(sinceReview.getByRole('heading', { name: 'Tasks changed (1)' })).toBeVisible();
  await expect(sinceReview.getByRole('group', { name: 'Task summarise changed' })).toContainText('Summarise per facility');
  await expect(sinceReview.getByRole('group', { name: 'Task fetch changed' })).toHaveCount(0);
  await expect(sinceReview).not.toContainText('Fetch recent shipments');
  await expect(sinceReview).not.toContainText('Fetch last week’s shipments');
  await expect(review.canvas).toContainText('Marked against revision 3');

  // The picker compares with revision 1: both tasks' changes, in a URL that can be shared.
  await approver.getByLabel('Compare with').selectOption('1');
  await approver.getByRole('button', { name: 'Compare' }).click();
  await expect(approver).toHaveURL(/[?&]base=1\b/);
  const sinceStart = review.changesSince(1);
  await expect(sinceStart.getByRole('heading', { name: 'Tasks changed (2)' })).toBeVisible();
  await expect(sinceStart.getByRole('group', { name: 'Task fetch changed' })).toContainText('Fetch last week’s shipments');
  await expect(sinceStart.getByRole('group', { name: 'Task summarise changed' })).toBeVisible();

  // A base that is not an earlier revision is refused in words, and the default shown.
  await approver.goto(`/plans/${id}/review?base=9`);
  await expect(approver.getByRole('alert').filter({ hasText: '"9" is not a revision to compare revision 4 with' })).toContainText(
    'choose a revision from 1 to 3, or "approved". Showing changes since your last review (revision 3) instead.',
  );
  await expect(approver.getByRole('heading', { name: 'Changes since your last review (revision 3)' })).toBeVisible();
  expect(await axeViolations(approver)).toEqual([]);
});

test('approving with an open thread asks first, listing it; cancel changes nothing, "Approve anyway" approves', async ({ page, api, reviewAs }) => {
  const { id } = await api.create('Open question', plan);
  await api.submitted(id);
  const question = 'Which endpoint does this call, and how often does it page through the results?';
  expect((await page.request.post(`/api/plans/${id}/comments`, { data: { task_id: 'fetch', body: question, revision: 1 } })).status()).toBe(201);

  const review = await reviewAs('approver');
  const approver = review.page;
  await review.open(id);
  const approve = approver.getByRole('button', { name: 'Approve', exact: true });
  await approve.click();
  const dialog = approver.getByRole('alertdialog', { name: 'Approve with 1 open comment thread?' });
  await expect(dialog).toBeVisible();
  const open = dialog.getByRole('list', { name: 'Open threads' }).getByRole('listitem');
  await expect(open).toHaveCount(1);
  await expect(open).toContainText('Fetch shipments');
  await expect(open).toContainText('Which endpoint does this call, and how often does it page through…');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await axeViolations(approver)).toEqual([]);

  // Cancel: the dialog goes, focus returns to Approve, and the plan is still waiting.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(approve).toBeFocused();
  await expect(review.decisions).toHaveCount(0);
  expect((await (await page.request.get(`/api/plans/${id}/reviews`)).json()).status).toBe('in_review');

  // Approve anyway: approved, said as done, never as a refusal.
  await approve.click();
  await dialog.getByRole('button', { name: 'Approve anyway' }).click();
  const decision = approver.getByRole('region', { name: 'Decision', exact: true });
  await expect(decision.getByRole('status').filter({ hasText: 'You approved revision 1.' })).toBeVisible();
  await expect(review.decisions).toContainText('approved');
  await expect(decision).not.toContainText('Only a plan in review can be decided on');
  expect((await (await page.request.get(`/api/plans/${id}/reviews`)).json()).status).toBe('approved');
  // Still so after a reload.
  await approver.reload();
  await expect(decision.getByRole('status').filter({ hasText: 'You approved revision 1.' })).toBeVisible();
});
