import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Guard rails in the editor: what saving would void is said before it happens, and asked
// once when it would; Ctrl/Cmd+S saves; the inspector brings dependencies and dependents
// into view; arrow keys move tasks, a burst of presses being one undo step.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review', execution_type: 'llm', dependencies: ['summarise'] },
  ],
};

/** Drags the canvas (from its empty top-left corner) far down, so that every task is off it. */
async function panAway(page: Page) {
  const canvas = (await page.getByLabel('Plan graph', { exact: true }).boundingBox())!;
  await page.mouse.move(canvas.x + 30, canvas.y + 15);
  await page.mouse.down();
  await page.mouse.move(canvas.x + 30, canvas.y + 15 + 700, { steps: 10 });
  await page.mouse.up();
}

async function box(locator: Locator) {
  const b = (await locator.boundingBox())!;
  return { x: Math.round(b.x), y: Math.round(b.y) };
}

test('an approved plan says who approved it; a layout-only save keeps the approval, a content change asks first and voids it', async ({ page, api, editor, approve }) => {
  const { id } = await api.create('Guarded plan', plan);
  await approve(id);
  await editor.open(id, { showing: 'Review' });
  const banner = page.getByRole('status').filter({ hasText: 'Approved by approver at r1; saving will void the approval' });
  await expect(banner).toBeVisible();

  // Moving a task changes only the layout: saved without a question, still approved.
  const review = page.getByRole('group', { name: 'Task Review' });
  const from = (await review.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 120, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Revision 2')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  expect((await api.head(id)).status).toBe('approved');
  await expect(banner).toBeVisible();

  // A content change asks; "Keep editing" saves nothing.
  await editor.describe('Fetch', 'Fetch the papers');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Save and void the approval?' });
  await expect(dialog).toContainText('Approved by approver at r1');
  await dialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  await page.getByRole('button', { name: 'Save' }).click();
  await dialog.getByRole('button', { name: 'Save and void approval' }).click();
  await expect(page.getByText('Revision 3')).toBeVisible();
  await expect(editor.saved).toBeVisible();
  await expect(banner).toHaveCount(0);
  await expect(page.getByText('draft', { exact: true })).toBeVisible();

  // Nothing stands any more: the next content save asks nothing.
  await editor.description.fill('Fetch all the papers');
  await editor.description.blur();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Revision 4')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('a plan in review says so, and Ctrl+S saves from a text field without the browser saving the page', async ({ page, api, editor }) => {
  const { id } = await api.create('Plan in review', plan);
  await api.submitted(id);
  await editor.open(id, { showing: 'Review' });
  await expect(page.getByRole('status').filter({ hasText: 'In review at r1; saving will withdraw it from review' })).toBeVisible();
  await page.evaluate(() => {
    // Registered after the editor's own listener, so it sees whether that one prevented the default.
    window.addEventListener('keydown', (event) => {
      if (event.key.toLowerCase() === 's') document.body.dataset.savePrevented = String(event.defaultPrevented);
    });
  });

  // Typed and not yet applied: Ctrl+S applies it and, after the question, saves it.
  await page.getByRole('group', { name: 'Task Summarise' }).click();
  await page.getByRole('textbox', { name: 'Description' }).fill('Summarise briefly');
  await page.keyboard.press('Control+s');
  await page.getByRole('alertdialog', { name: 'Save and withdraw it from review?' }).getByRole('button', { name: 'Save and withdraw' }).click();
  await expect(page.getByText('Revision 2')).toBeVisible();
  await expect(editor.saved).toBeVisible();
  expect(await page.evaluate(() => document.body.dataset.savePrevented)).toBe('true');

  await page.reload();
  await expect(page.getByRole('group', { name: 'Task Summarise briefly' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'In review' })).toHaveCount(0);
});

test('a dependency or a dependent clicked in the inspector is selected and brought into view', async ({ page, api, editor }) => {
  const { id } = await api.create('Plan to navigate', plan);
  await editor.open(id, { query: '?task=summarise', showing: 'Review' });
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');
  await expect(inspector.getByRole('list', { name: 'Needed by' })).toContainText('Review');

  const fetch = page.getByRole('group', { name: 'Task Fetch' });
  await panAway(page);
  await expect(fetch).not.toBeInViewport();
  await inspector.getByRole('button', { name: 'Fetch', exact: true }).click();
  await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Fetch');
  await expect(fetch).toBeInViewport();

  // Fetch is needed by Summarise: clicking it there goes back.
  const summarise = page.getByRole('group', { name: 'Task Summarise' });
  await panAway(page);
  await expect(summarise).not.toBeInViewport();
  await inspector.getByRole('list', { name: 'Needed by' }).getByRole('button', { name: 'Summarise', exact: true }).click();
  await expect(inspector.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');
  await expect(summarise).toBeInViewport();
});

test('arrow keys move the selected task, a burst of presses is one undo step, and typing is never a move', async ({ page, api, editor }) => {
  const { id } = await api.create('Plan to nudge', plan);
  await editor.open(id, { showing: 'Review' });
  const review = page.getByRole('group', { name: 'Task Review' });
  await review.click();
  await review.focus();
  const start = await box(review);

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(async () => (await box(review)).x).toBeGreaterThan(start.x + 20);
  const moved = await box(review);
  expect(moved.y).toBe(start.y);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  // A pause ends the burst: the next press is a step of its own.
  await page.waitForTimeout(800);
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await box(review)).y).toBeGreaterThan(start.y);

  await page.keyboard.press('Control+z');
  await expect.poll(() => box(review)).toEqual(moved);
  await page.keyboard.press('Control+z');
  await expect.poll(() => box(review)).toEqual(start);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();

  // In a text field the arrow keys move the caret, not the task.
  const description = page.getByRole('textbox', { name: 'Description' });
  await description.click();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  expect(await box(review)).toEqual(start);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
});

test('invalid JSON keeps its text and error when another task is selected, and is discarded only when confirmed', async ({ page, api, editor }) => {
  const { id } = await api.create('Plan with a typo', plan);
  await editor.open(id, { showing: 'Review' });
  await page.getByRole('group', { name: 'Task Fetch' }).click();
  const parameters = page.getByRole('textbox', { name: 'Parameters (JSON)' });
  await parameters.fill('{ "limit": ');
  await page.getByRole('group', { name: 'Task Summarise' }).click();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue('Summarise');
  await expect(parameters).toHaveValue('{}');

  await page.getByRole('group', { name: 'Task Fetch' }).click();
  await expect(parameters).toHaveValue('{ "limit": ');
  await expect(page.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toBeVisible();

  // Asked first; "Keep it" keeps it.
  await page.getByRole('button', { name: 'Discard my text in Parameters (JSON)' }).click();
  const question = page.getByRole('group', { name: 'Discard your text in Parameters (JSON)?' });
  await question.getByRole('button', { name: 'Keep it' }).click();
  await expect(parameters).toHaveValue('{ "limit": ');
  await page.getByRole('button', { name: 'Discard my text in Parameters (JSON)' }).click();
  await question.getByRole('button', { name: 'Discard' }).click();
  await expect(parameters).toHaveValue('{}');
  await expect(page.getByRole('alert').filter({ hasText: 'Not valid JSON' })).toHaveCount(0);
  await expect(editor.saved).toBeVisible();
});
