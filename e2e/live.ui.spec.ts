import { EDITOR_STATE } from './auth-support';
import { expect, PlanEditor, test } from './fixtures';

// Two people on one plan: the second learns of the first's save within seconds and puts
// their own, non-overlapping, edit on top of it instead of throwing it away.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'papers_search' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review', execution_type: 'agent', agent_id: 'reviewer' },
  ],
};

async function describeTask(editor: PlanEditor, task: string, text: string) {
  await editor.describe(task, text);
  await expect(editor.page.getByText('Unsaved changes', { exact: true })).toBeVisible();
}

test('a second editor sees a save within seconds and applies a non-overlapping edit on top of it', async ({ page, browser, baseURL, api, editor }) => {
  const { id } = await api.create('Live test plan', plan);
  const otherContext = await browser.newContext({ baseURL, storageState: EDITOR_STATE });
  const other = await otherContext.newPage();
  const otherEditor = new PlanEditor(other);
  try {
    await editor.open(id, { showing: 'Review' });
    await otherEditor.open(id, { showing: 'Review' });

    await describeTask(otherEditor, 'Fetch', 'Fetch from the other tab');
    // The first tab learns that someone else is here, with unsaved edits.
    await expect(page.getByRole('status').filter({ hasText: 'Also here' })).toContainText('editing r1, unsaved changes', { timeout: 5_000 });

    await describeTask(editor, 'Review', 'Review from the first tab');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Revision 2')).toBeVisible();

    const live = other.getByRole('status').filter({ hasText: 'saved r2' });
    await expect(live).toBeVisible({ timeout: 5_000 });
    await expect(live).toContainText('editor saved r2');
    await other.getByRole('button', { name: 'Review and apply my changes on top of r2' }).click();
    const dialog = other.getByRole('dialog', { name: 'This plan was saved elsewhere' });
    await expect(dialog).toContainText('do not overlap');
    await dialog.getByRole('button', { name: 'Apply my changes on top of r2' }).click();
    await expect(dialog).toBeHidden();
    // Both edits are on the canvas, based on r2 and still unsaved.
    await expect(other.getByRole('group', { name: 'Task Review from the first tab' })).toBeVisible();
    await expect(other.getByRole('group', { name: 'Task Fetch from the other tab' })).toBeVisible();
    await expect(other.getByText('Your changes are now on top of revision 2; review them and save')).toBeVisible();
    await expect(other.getByText(/^Revision 2/)).toContainText('Unsaved changes');
    await other.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(other.getByText('Revision 3')).toBeVisible();

    const saved = await api.head(id);
    expect(saved.revision).toBe(3);
    const descriptions = Object.fromEntries(saved.plan.planned_tasks.map((t) => [t.task_id, t.description]));
    expect(descriptions).toEqual({ fetch: 'Fetch from the other tab', summarise: 'Summarise', review: 'Review from the first tab' });

    // And the first tab, which has nothing unsaved, can load r3.
    await page.getByRole('button', { name: 'Load r3' }).click({ timeout: 5_000 });
    await expect(page.getByRole('group', { name: 'Task Fetch from the other tab' })).toBeVisible();
    await expect(page.getByText('Revision 3')).toBeVisible();
  } finally {
    await otherContext.close();
  }
});

test('edits that overlap are shown side by side, and the chosen side is kept', async ({ page, api, editor }) => {
  const { id } = await api.create('Live conflict plan', plan);
  await editor.open(id, { showing: 'Review' });
  await describeTask(editor, 'Summarise', 'Summarise here');
  const elsewhere = { ...plan, planned_tasks: plan.planned_tasks.map((t) => (t.task_id === 'summarise' ? { ...t, description: 'Summarise there' } : t)) };
  expect((await api.save(id, { base_revision: 1, plan: elsewhere })).status()).toBe(200);

  await page.getByRole('button', { name: 'Review and apply my changes on top of r2' }).click({ timeout: 5_000 });
  const dialog = page.getByRole('dialog', { name: 'This plan was saved elsewhere' });
  const task = dialog.getByRole('group', { name: 'Task summarise' });
  await expect(task.getByRole('row', { name: /description/ })).toContainText('Summarise here');
  await expect(task.getByRole('row', { name: /description/ })).toContainText('Summarise there');
  const apply = dialog.getByRole('button', { name: 'Apply my changes on top of r2' });
  await expect(apply).toBeDisabled();
  await task.getByRole('radio', { name: 'Keep mine' }).check();
  await apply.click();
  await expect(page.getByRole('group', { name: 'Task Summarise here' })).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Revision 3')).toBeVisible();
  expect((await api.task(id, 'summarise'))!.description).toBe('Summarise here');
});

test('dependencies that only together form a cycle are a conflict, settled by the chosen side', async ({ page, api, editor }) => {
  const { id } = await api.create('Live cycle plan', plan);
  await editor.open(id, { showing: 'Review' });
  // Here: Review waits for Fetch. Elsewhere: Fetch waits for Review.
  await page.getByRole('group', { name: 'Task Review' }).click();
  await page.getByRole('combobox', { name: 'Task to depend on' }).selectOption({ label: 'Fetch' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Unsaved changes', { exact: true })).toBeVisible();
  const elsewhere = { ...plan, planned_tasks: plan.planned_tasks.map((t) => (t.task_id === 'fetch' ? { ...t, dependencies: ['review'] } : t)) };
  expect((await api.save(id, { base_revision: 1, plan: elsewhere })).status()).toBe(200);

  await page.getByRole('button', { name: 'Review and apply my changes on top of r2' }).click({ timeout: 5_000 });
  const dialog = page.getByRole('dialog', { name: 'This plan was saved elsewhere' });
  const cycle = dialog.getByRole('group', { name: /^Dependency cycle:/ });
  await expect(cycle).toContainText('go round in a circle');
  await expect(cycle.getByRole('row', { name: /review dependencies/ })).toContainText('fetch');
  const apply = dialog.getByRole('button', { name: 'Apply my changes on top of r2' });
  await expect(apply).toBeDisabled();
  await cycle.getByRole('radio', { name: 'Keep mine' }).check();
  await apply.click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Revision 3')).toBeVisible();
  const saved = await api.head(id);
  const deps = Object.fromEntries(saved.plan.planned_tasks.map((t) => [t.task_id, t.dependencies]));
  expect([deps.fetch, deps.review]).toEqual([[], ['fetch']]);
});

test('the heartbeat is a route any reader may call, and it refuses a revision beyond the head', async ({ page, api }) => {
  const { id } = await api.create('Live route plan', plan);
  const beat = (revision: number) => page.request.post(`/api/plans/${id}/presence`, { data: { session_id: 'route-test-tab', revision, dirty: false } });
  const answer = await beat(1);
  expect(answer.status()).toBe(200);
  expect((await answer.json()).head).toMatchObject({ revision: 1, status: 'draft' });
  const beyond = await beat(2);
  expect(beyond.status()).toBe(400);
  expect((await beyond.json()).error.message).toContain('the head is 1');
  expect((await page.request.delete(`/api/plans/${id}/presence`, { data: { session_id: 'route-test-tab' } })).status()).toBe(204);
});
