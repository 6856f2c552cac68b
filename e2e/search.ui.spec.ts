import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';

// Finding tasks on the canvas: the outline's search marks the matches and dims the rest,
// and "Show upstream" dims every task the selection does not depend on.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'papers_search', arguments: { query: { terms: ['Graph Neural Networks'] } } },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review', execution_type: 'agent', agent_id: 'reviewer_bot', dependencies: ['summarise'] },
    { task_id: 'notify', description: 'Notify', execution_type: 'agent', agent_id: 'messenger_bot' },
  ],
};

/** Dimmed tasks are drawn faint; the card inside the node carries the opacity. */
const card = (node: Locator) => node.locator(':scope > div');

test('search by an argument value marks the match, dims the rest, steps to it with Enter, and Esc clears it', async ({ page, api, editor }) => {
  const { id } = await api.create('Search test plan', plan);
  await editor.open(id, { showing: 'Notify' });
  const outline = page.getByRole('navigation', { name: 'Outline' });
  const search = outline.getByRole('searchbox', { name: 'Find a task' });

  await search.fill('neural');
  await expect(outline.getByText('1 match', { exact: true })).toBeVisible();
  await expect(editor.node('Fetch').getByText('Match', { exact: true })).toBeVisible();
  await expect(card(editor.node('Notify'))).toHaveCSS('opacity', '0.25');
  await expect(card(editor.node('Fetch'))).toHaveCSS('opacity', '1');
  await expect(outline.getByRole('list', { name: 'Tasks' }).getByRole('button')).toHaveCount(1);

  await search.press('Enter');
  await expect(outline.getByText('1 match, showing 1 of 1')).toBeVisible();
  await expect(editor.node('Fetch').getByText('Current match')).toBeVisible();
  await expect(editor.description).toHaveValue('Fetch');

  // By the target the task runs on, any case: two agents.
  await search.fill('_BOT');
  await expect(outline.getByText('2 matches', { exact: true })).toBeVisible();
  await search.press('Enter');
  await expect(editor.description).toHaveValue('Review');
  await search.press('Enter');
  await expect(editor.description).toHaveValue('Notify');
  await search.press('Shift+Enter');
  await expect(editor.description).toHaveValue('Review');

  await search.press('Escape');
  await expect(search).toHaveValue('');
  await expect(outline.getByText('4 tasks')).toBeVisible();
  await expect(page.getByText('Match', { exact: true })).toHaveCount(0);
  await expect(card(editor.node('Notify'))).toHaveCSS('opacity', '1');
});

test('show upstream dims every task the selection does not depend on, and Esc clears it', async ({ page, api, editor }) => {
  const { id } = await api.create('Upstream test plan', plan);
  await editor.open(id, { showing: 'Notify' });
  const toolbar = page.getByRole('toolbar', { name: 'Editor' });
  await expect(toolbar.getByRole('button', { name: 'Show upstream' })).toBeDisabled();

  await editor.select('Review');
  await toolbar.getByRole('button', { name: 'Show upstream' }).click();
  await expect(toolbar.getByRole('button', { name: 'Show upstream' })).toHaveAttribute('aria-pressed', 'true');
  await expect(toolbar.getByRole('status')).toHaveText('2 tasks upstream');
  await expect(card(editor.node('Notify'))).toHaveCSS('opacity', '0.25');
  for (const label of ['Fetch', 'Summarise', 'Review']) await expect(card(editor.node(label))).toHaveCSS('opacity', '1');

  await toolbar.getByRole('button', { name: 'Show downstream' }).click();
  await expect(toolbar.getByRole('status')).toHaveText('0 tasks downstream');
  await expect(card(editor.node('Fetch'))).toHaveCSS('opacity', '0.25');

  await editor.node('Review').press('Escape');
  await expect(toolbar.getByRole('status')).toHaveText('');
  await expect(toolbar.getByRole('button', { name: 'Show downstream' })).toHaveAttribute('aria-pressed', 'false');
  await expect(card(editor.node('Fetch'))).toHaveCSS('opacity', '1');
});

test('following a dependency from a search result ends the search, so the task it leads to is not left faded', async ({ page, api, editor }) => {
  const { id } = await api.create('Search then follow plan', plan);
  await editor.open(id, { showing: 'Notify' });
  const search = page.getByRole('navigation', { name: 'Outline' }).getByRole('searchbox', { name: 'Find a task' });

  await search.fill('summ');
  await search.press('Enter');
  await expect(editor.description).toHaveValue('Summarise');
  await expect(card(editor.node('Fetch'))).toHaveCSS('opacity', '0.25');

  // The inspector's link to what Summarise depends on.
  await editor.inspector.getByRole('group', { name: 'Depends on' }).getByRole('button', { name: 'Fetch', exact: true }).click();
  await expect(editor.description).toHaveValue('Fetch');
  await expect(search).toHaveValue('');
  for (const label of ['Fetch', 'Summarise', 'Review', 'Notify']) await expect(card(editor.node(label))).toHaveCSS('opacity', '1');
});
