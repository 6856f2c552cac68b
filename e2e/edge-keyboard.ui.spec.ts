import { expect, test } from './fixtures';

// A dependency edited from the keyboard, as the README promises: Tab (or focus) to an edge,
// Enter selects it, Delete or Backspace removes it, and the keyboard stays on the canvas.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'papers_search' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review', execution_type: 'agent', agent_id: 'reviewer_bot', dependencies: ['summarise'] },
  ],
};

test('a focused dependency is selected with Enter and deleted with Delete or Backspace, focus staying on the canvas', async ({ page, api, editor }) => {
  const { id } = await api.create('Edge keyboard plan', plan);
  await editor.open(id, { showing: 'Review' });
  const deleteButton = page.getByRole('toolbar', { name: 'Editor' }).getByRole('button', { name: 'Delete', exact: true });
  const dependencies = page.getByRole('group', { name: /^Dependency / });
  await expect(dependencies).toHaveCount(2);

  // A task selected before: selecting the edge unselects it, which must not unselect the edge too.
  await editor.select('Fetch');
  const first = page.getByRole('group', { name: 'Dependency Fetch → Summarise' });
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(first).toBeFocused();
  await expect(deleteButton).toBeEnabled();
  await page.keyboard.press('Delete');
  await expect(first).toHaveCount(0);
  await expect(dependencies).toHaveCount(1);
  // The keyboard is on the task the dependency led into, not back at the top of the page.
  await expect(editor.node('Summarise')).toBeFocused();

  const second = page.getByRole('group', { name: 'Dependency Summarise → Review' });
  await second.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Backspace');
  await expect(dependencies).toHaveCount(0);
  await expect(editor.node('Review')).toBeFocused();

  // Both went through the plan: the outline no longer says Review comes after Summarise, and one undo brings it back.
  const outline = page.getByRole('navigation', { name: 'Outline' });
  await expect(outline.getByRole('button', { name: /^Review/ })).not.toContainText('after Summarise');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(second).toHaveCount(1);
});
