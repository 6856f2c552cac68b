import { expect, test } from './fixtures';

// Replanning selected tasks on an approved plan: two tasks selected on the canvas, a
// proposal reviewed as a diff, one replacement accepted. The plan moves to a new
// revision, the approval no longer stands, and undo takes the replacement back.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise the shipments', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'report', description: 'Write the report', execution_type: 'llm', dependencies: ['summarise'] },
  ],
};

test('select two tasks, replan them, accept one replacement, and find the plan at a new revision with its approval voided', async ({ page, api, editor, approve }) => {
  const { id } = await api.create('Shipments to replan', plan);
  await approve(id);
  expect(await api.handOff(id)).toEqual({ status: 200, code: undefined, revision: 1 });

  await editor.open(id);
  await page.getByRole('group', { name: 'Task Summarise the shipments' }).click();
  await page.getByRole('group', { name: 'Task Write the report' }).click({ modifiers: ['Control'] });
  await page.getByRole('button', { name: 'Replan selected…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Replan selected tasks' });
  await expect(dialog).toContainText('Marked for replanning: Summarise the shipments, Write the report');
  await dialog.getByRole('textbox', { name: 'Instructions (optional)' }).fill('Keep it under 200 words.');
  await dialog.getByRole('button', { name: 'Propose replacements' }).click();

  const summarise = dialog.getByRole('region', { name: 'Replacement for Summarise the shipments' });
  const report = dialog.getByRole('region', { name: 'Replacement for Write the report' });
  await expect(summarise.getByRole('table', { name: 'Fields changed for Summarise the shipments' })).toContainText('Keep it under 200 words.');
  await expect(summarise).toContainText('+ dependency fetch → summarise-r1');
  await expect(summarise).toContainText('− dependency summarise → report');
  await report.getByRole('checkbox', { name: 'Accept the replacement for Write the report' }).uncheck();
  await dialog.getByRole('button', { name: 'Apply 1 accepted' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'saved as revision 2' })).toBeVisible();
  await expect(page.getByText(/^Revision 2/)).toBeVisible();

  const head = await api.head(id);
  expect(head.revision).toBe(2);
  expect(head.status).toBe('draft');
  const tasks = Object.fromEntries(head.plan.planned_tasks.map((t) => [t.task_id, t]));
  expect(Object.keys(tasks).sort()).toEqual(['fetch', 'report', 'summarise-r1']);
  expect(tasks['summarise-r1']).toMatchObject({ main_task_id: 'summarise', dependencies: ['fetch'] });
  expect(tasks['summarise-r1'].description).toContain('Keep it under 200 words.');
  expect(tasks.report).toMatchObject({ description: 'Write the report', dependencies: ['summarise-r1'] });
  expect(await api.handOff(id)).toEqual({ status: 409, code: 'stale' });

  // The replacement was one step: undo brings the replaced task back, as an unsaved change.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('group', { name: 'Task Summarise the shipments' })).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
});
