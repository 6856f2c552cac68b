import type { Locator, Page } from '@playwright/test';
import { expect, test, type PlanEditor, type PlansApi } from './fixtures';

// The editor, driven like an operator would: mouse drags on the canvas, the keyboard,
// and the inspector. Each test works on its own freshly created plan.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'papers_search' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review', execution_type: 'agent', agent_id: 'reviewer' },
  ],
};

/** A plan of the test's own, open once its first layout has landed: drags must start once the nodes have settled. */
async function openNewPlan(api: PlansApi, editor: PlanEditor, query = ''): Promise<string> {
  const { id } = await api.create('Editor test plan', plan);
  await editor.open(id, { query, showing: 'Review' });
  return id;
}

async function drag(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

const edge = (page: Page, name: string) => page.getByRole('group', { name: `Dependency ${name}` });

test('add a dependency by dragging, undo and redo it, save, and find it after a reload', async ({ page, api, editor }) => {
  await openNewPlan(api, editor);
  await drag(page, page.getByLabel('Add a dependency from Summarise'), page.getByLabel('Input of Review'));
  await expect(edge(page, 'Summarise → Review')).toHaveCount(1);
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(edge(page, 'Summarise → Review')).toHaveCount(0);
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(edge(page, 'Summarise → Review')).toHaveCount(1);

  await page.getByRole('textbox', { name: 'Revision message' }).fill('review after summary');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Revision 2')).toBeVisible();
  await expect(editor.saved).toBeVisible();

  await page.reload();
  await expect(edge(page, 'Summarise → Review')).toHaveCount(1);
  await expect(page.getByText('Revision 2')).toBeVisible();

  await page.getByRole('link', { name: 'Revisions' }).click();
  await expect(page.getByRole('heading', { name: 'Changes from revision 1 to 2' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Dependencies changed' })).toContainText('+ summarise → review');
  await expect(page.getByRole('cell', { name: 'review after summary' })).toBeVisible();
  await page.getByRole('link', { name: 'Revision 1', exact: true }).click();
  await expect(page.getByText('Revision 1 · read-only')).toBeVisible();
  await expect(edge(page, 'Summarise → Review')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
});

test('a connection that would close a cycle is refused, naming the cycle', async ({ page, api, editor }) => {
  await openNewPlan(api, editor);
  await drag(page, page.getByLabel('Add a dependency from Summarise'), page.getByLabel('Input of Fetch'));
  await expect(page.getByRole('alert').filter({ hasText: 'Would create a cycle' })).toHaveText(/Would create a cycle: Summarise → Fetch → Summarise/);
  await expect(edge(page, 'Summarise → Fetch')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
});

test('select an edge and delete it with the keyboard, then undo and redo the deletion', async ({ page, api, editor }) => {
  await openNewPlan(api, editor);
  const dependency = edge(page, 'Fetch → Summarise');
  await dependency.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Delete');
  await expect(dependency).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(dependency).toHaveCount(1);
  await page.keyboard.press('Control+Shift+z');
  await expect(dependency).toHaveCount(0);
});

test('drag the end of an edge onto another task to move the dependency there', async ({ page, api, editor }) => {
  await openNewPlan(api, editor);
  // The edge's end is just left of the target's input handle, where its grab area is.
  const end = (await page.getByLabel('Input of Summarise').boundingBox())!;
  const target = (await page.getByLabel('Input of Review').boundingBox())!;
  await page.mouse.move(end.x - 8, end.y + end.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(edge(page, 'Fetch → Review')).toHaveCount(1);
  await expect(edge(page, 'Fetch → Summarise')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(edge(page, 'Fetch → Summarise')).toHaveCount(1);
});

test('edit a task description in the inspector, undo and redo it', async ({ page, api, editor }) => {
  await openNewPlan(api, editor);
  await page.getByRole('group', { name: 'Task Fetch' }).click();
  const description = page.getByRole('textbox', { name: 'Description' });
  await expect(description).toHaveValue('Fetch');
  await description.fill('Fetch the papers');
  await description.blur();
  await expect(page.getByRole('group', { name: 'Task Fetch the papers' })).toBeVisible();

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('group', { name: 'Task Fetch' })).toBeVisible();
  await expect(description).toHaveValue('Fetch');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(description).toHaveValue('Fetch the papers');

  const parameters = page.getByRole('textbox', { name: 'Parameters (JSON)' });
  await parameters.fill('{ "limit": ');
  await parameters.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toBeVisible();
});

test('a ?task= link opens with that task selected', async ({ page, api, editor }) => {
  await openNewPlan(api, editor, '?task=summarise');
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByText('summarise', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');
  await page.getByRole('navigation', { name: 'Outline' }).getByRole('button', { name: /^Review/ }).click();
  await expect(page).toHaveURL(/[?&]task=review/);
});

test('saving over a revision saved elsewhere offers the merge, and can load the latest instead', async ({ page, api, editor }) => {
  const id = await openNewPlan(api, editor);
  await editor.describe('Review', 'Review locally');

  const elsewhere = { ...plan, planned_tasks: plan.planned_tasks.map((t) => (t.task_id === 'review' ? { ...t, description: 'Review remotely' } : t)) };
  expect((await api.save(id, { base_revision: 1, plan: elsewhere })).status()).toBe(200);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'This plan was saved elsewhere' });
  await expect(dialog).toContainText('Revision 2 was saved while you were editing revision 1');
  await expect(dialog.getByRole('group', { name: 'Task review' })).toContainText('Review remotely');
  await dialog.getByRole('button', { name: 'Discard mine and load r2' }).click();
  await expect(page.getByRole('group', { name: 'Task Review remotely' })).toBeVisible();
  await expect(page.getByText('Revision 2')).toBeVisible();
});
