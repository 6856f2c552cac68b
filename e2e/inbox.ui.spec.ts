import type { Page } from '@playwright/test';
import { adminHeaders } from './auth-support';
import { axeViolations, expect, test } from './fixtures';

// Who must act, and telling them: the editor (the browser state every UI test starts with)
// submits a plan asking approvers by name; each finds it in their inbox and the header's
// count, and the editor finds the decision in theirs. Every person has a context of their own.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

const itemAbout = (page: Page, title: string) => page.getByRole('list', { name: 'Inbox items' }).getByRole('listitem').filter({ hasText: title });

test('a reviewer requested by name finds it in their inbox; the editor finds the decision in theirs', async ({ page, api, signedIn, reviewAs }) => {
  // Three people sign in and act in turn: on two busy cores this alone takes near 30 s.
  test.setTimeout(90_000);
  const suffix = `${Date.now().toString(36)}-${test.info().workerIndex}`;
  const title = `Inbox shipments ${suffix}`;
  // An approver of this test's own, whose inbox no other test writes to, so its count is exact.
  const fresh = { username: `inbox-approver-${suffix}`, password: 'inbox-approver-password' };
  expect((await page.request.post('/api/users', { headers: adminHeaders, data: { ...fresh, role: 'approver' } })).status()).toBe(201);
  const { id } = await api.create(title, plan, { exactTitle: true });

  // The editor picks the reviewers by name, with the keyboard, and submits.
  await page.goto(`/plans/${id}`);
  await expect(page.getByRole('group', { name: 'Task Fetch shipments' })).toBeVisible();
  const choose = page.getByRole('button', { name: 'Choose reviewers' });
  await choose.click();
  await expect(choose).toHaveAttribute('aria-expanded', 'true');
  // The list of approvers, open, passes the same WCAG 2.2 AA check as every page.
  expect(await axeViolations(page)).toEqual([]);
  // Opening the list puts the keyboard on its first approver; Space ticks one.
  await expect(page.getByRole('checkbox').first()).toBeFocused();
  const approver2Box = page.getByRole('checkbox', { name: 'approver2', exact: true });
  await approver2Box.focus();
  await page.keyboard.press('Space');
  await expect(approver2Box).toBeChecked();
  await page.getByRole('checkbox', { name: fresh.username, exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Choose reviewers (2)' })).toBeFocused();
  await page.getByRole('button', { name: 'Submit r1 for review' }).click();
  await expect(page.getByText('in review', { exact: true })).toBeVisible();
  const gate = await (await page.request.get(`/api/plans/${id}/reviews`)).json();
  expect(gate.requested_reviewers.map((r: { reviewer: string }) => r.reviewer).sort()).toEqual(['approver2', fresh.username].sort());

  // approver2 sees a count in the header, and the request in the inbox, linked to the review.
  const review = await reviewAs('approver2');
  const approver2 = review.page;
  await approver2.goto('/');
  await approver2.getByRole('banner').getByRole('link', { name: /^Inbox, \d+ unread$/ }).click();
  await expect(approver2.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  const request = itemAbout(approver2, title);
  await expect(request).toContainText('Review requested');
  await expect(request).toContainText('Unread');
  await expect(request).toContainText(`editor asked you to review r1 of “${title}”.`);
  const reviewLink = request.getByRole('link', { name: `Review “${title}”` });
  await expect(reviewLink).toHaveAttribute('href', `/plans/${id}/review`);

  // The review queue puts it first, under "Requested from you".
  await approver2.goto('/reviews');
  await expect(approver2.getByRole('region', { name: 'Requested from you' }).getByRole('link', { name: title })).toBeVisible();

  // approver2 opens the review from the inbox and requests changes.
  await approver2.goto('/inbox');
  await itemAbout(approver2, title).getByRole('link', { name: `Review “${title}”` }).click();
  await expect(approver2).toHaveURL(new RegExp(`/plans/${id}/review(\\?.*)?$`));
  await expect(approver2.getByRole('list', { name: 'Requested reviewers' })).toContainText('approver2');
  await review.decide('Request changes', 'Only last week, please.');

  // The editor's inbox shows the decision, with its comment, linked to the plan.
  await page.goto('/inbox');
  const decision = itemAbout(page, title).filter({ hasText: 'Decision' });
  await expect(decision).toContainText(`approver2 requested changes to r1 of “${title}”: Only last week, please.`);
  await expect(decision.getByRole('link', { name: `Open “${title}”` })).toHaveAttribute('href', `/plans/${id}`);
  await decision.getByRole('button', { name: /^Mark read/ }).click();
  await expect(decision).not.toContainText('Unread');

  // The other reviewer: exactly one unread item, until "Mark all read" clears it, header included.
  const other = await signedIn(fresh.username, fresh.password);
  const inboxLink = other.getByRole('banner').getByRole('link', { name: /^Inbox/ });
  await expect(inboxLink).toHaveAccessibleName('Inbox, 1 unread');
  await inboxLink.click();
  await expect(itemAbout(other, title)).toContainText('Review requested');
  await other.getByRole('button', { name: 'Mark all read' }).click();
  await expect(other.getByRole('status').filter({ hasText: 'Nothing unread.' })).toBeVisible();
  await expect(itemAbout(other, title)).not.toContainText('Unread');
  await expect(inboxLink).toHaveAccessibleName('Inbox');
});

test('a submit naming someone who cannot review is refused, saying who, and leaves the plan in draft', async ({ page, api }) => {
  const { id, content_hash } = await api.create('Refused reviewers', plan);
  const refused = await page.request.post(`/api/plans/${id}/submit`, { data: { revision: 1, content_hash, reviewers: ['editor'] } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.message).toBe('"editor" is submitting this plan and cannot review it; ask someone else. Nothing was submitted.');
  const unknown = await page.request.post(`/api/plans/${id}/submit`, { data: { reviewers: ['approver2', 'nobody-here'] } });
  expect((await unknown.json()).error.message).toBe('There is no user named "nobody-here". Nothing was submitted.');
  expect((await (await page.request.get(`/api/plans/${id}/reviews`)).json()).status).toBe('draft');
});
