import { adminHeaders } from './auth-support';
import { expect, test } from './fixtures';

// A plan routed to tools the registry lacks: its issues come grouped by tool, can be
// filtered, and an editor adds the missing tools in one step, after which they are gone.

const task = (task_id: string, tool_id: string, dependencies: string[]) => ({ task_id, description: `Step ${task_id}`, execution_type: 'tool', tool_id, dependencies });

test('issues are grouped by unknown tool, filtered, and fixed by adding the tools to the registry', async ({ page, api, editor }) => {
  const suffix = `${Date.now().toString(36)}${test.info().workerIndex}`;
  const [fetcher, sorter] = [`e2e_fetch_${suffix}`, `e2e_sort_${suffix}`];
  const { id } = await api.create('Grouped issues', {
    planned_tasks: [task('a', fetcher, []), task('b', fetcher, ['a']), task('c', sorter, ['b']), task('lonely', fetcher, [])],
  });
  try {
    await editor.open(id, { showing: 'Step a' });
    const issues = page.getByRole('region', { name: 'Issues' });
    await expect(issues).toContainText('4 errors, 1 warning');
    const group = issues.getByRole('button', { name: /unknown tool/ });
    await expect(group).toContainText(`4 × unknown tool: ${fetcher} 3, ${sorter} 1`);
    await expect(group).toHaveAttribute('aria-expanded', 'false');

    await issues.getByRole('searchbox', { name: 'Filter issues' }).fill(sorter);
    await expect(group).toContainText(`1 × unknown tool: ${sorter} 1`);
    await issues.getByRole('searchbox', { name: 'Filter issues' }).fill('');
    await issues.getByRole('combobox', { name: 'Severity' }).selectOption('Warnings');
    await expect(group).toBeHidden();
    await expect(issues.getByRole('button', { name: /1 × isolated task/ })).toBeVisible();
    await issues.getByRole('combobox', { name: 'Severity' }).selectOption('All');

    await group.click();
    const listed = issues.getByRole('list', { name: 'unknown tool issues' }).getByRole('button');
    await expect(listed).toHaveCount(4);
    await listed.filter({ hasText: 'Task "c"' }).click();
    await expect(editor.description).toHaveValue('Step c');

    await issues.getByRole('button', { name: 'Add these 2 tools to the registry' }).click();
    await expect(issues).toContainText('No errors, 1 warning');
    await expect(group).toBeHidden();
  } finally {
    for (const tool of [fetcher, sorter]) await page.request.delete(`/api/registry/tools/${tool}`);
  }
});

test('a viewer sees the grouped issues but is not offered the registry fix', async ({ page, api, signedIn }) => {
  const username = `issues-viewer-${Date.now().toString(36)}${test.info().workerIndex}`;
  expect((await page.request.post('/api/users', { headers: adminHeaders, data: { username, password: 'viewer-pass-123', role: 'viewer' } })).status()).toBe(201);
  const tool = `e2e_missing_${Date.now().toString(36)}`;
  const { id } = await api.create('Grouped issues, read only', { planned_tasks: [task('a', tool, []), task('b', tool, ['a'])] });

  const viewer = await signedIn(username, 'viewer-pass-123');
  await viewer.goto(`/plans/${id}`);
  const issues = viewer.getByRole('region', { name: 'Issues' });
  await issues.getByRole('button', { name: `2 × unknown tool: ${tool} 2` }).click();
  await expect(issues.getByRole('list', { name: 'unknown tool issues' }).getByRole('button')).toHaveCount(2);
  await expect(issues.getByRole('button', { name: /to the registry/ })).toHaveCount(0);
});
