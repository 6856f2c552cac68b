import { adminHeaders } from './auth-support';
import { expect, test, uniqueTitle } from './fixtures';

// Issue #16's replan after a failure: a task whose LLM endpoint refuses every call fails at
// once (no retries), its dependent stays blocked and the run needs a replan. From the run
// view the editor opens the plan's editor with the replan dialog for that task, its
// instructions already saying what failed and why — read from the run, not the link.

test('a run that needs a replan links to the replan dialog, prefilled with the failure', async ({ page, api, approve, editor, request }) => {
  test.setTimeout(90_000);
  const model = uniqueTitle('unreachable-llm').replace(/\s+/g, '-');
  const registered = await request.put(`/api/registry/llms/${model}`, {
    headers: adminHeaders,
    // Port 9 (discard) has nothing listening: every call is refused.
    data: { name: model, description: 'An LLM nobody answers for', endpoint: { protocol: 'openai', url: 'http://127.0.0.1:9/v1', model: 'test-model' } },
  });
  expect(registered.status()).toBe(200);
  try {
    const { id } = await api.create('Fail me', {
      planned_tasks: [
        { task_id: 'fetch', description: 'Fetch the tide tables', execution_type: 'llm', function_id: model, arguments: { port: 'Brest' }, parameters: { retries: 0 } },
        { task_id: 'parse', description: 'Parse the tables', execution_type: 'llm', function_id: model, arguments: { tables: '${step[0]}' }, dependencies: ['fetch'] },
      ],
    });
    await approve(id);

    await editor.open(id, { showing: 'Fetch the tide tables' });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // The run view's canvas may add its viewport (?view=) as soon as it settles.
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?|$)/);
    const runId = new URL(page.url()).pathname.split('/').at(-1)!;
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('needs replan', { timeout: 30_000 });

    // The run offers it for all its failed tasks; the failed task's own panel for that one.
    const runHeader = page.getByRole('region', { name: /^Run [0-9a-f]{8} of revision/ });
    await expect(runHeader.getByRole('link', { name: 'Replan failed task' })).toHaveAttribute('href', `/plans/${id}?replan=fetch&run=${runId}`);
    await page.getByRole('group', { name: 'Task Fetch the tide tables' }).click();
    const inspector = page.getByRole('region', { name: 'Task in this run' });
    await expect(inspector.getByRole('button', { name: 'Retry task' })).toBeVisible();
    await inspector.getByRole('link', { name: 'Replan failed task' }).click();

    await expect(page).toHaveURL(new RegExp(`/plans/${id}\\?replan=fetch&run=${runId}(&|$)`));
    const dialog = page.getByRole('dialog', { name: 'Replan selected tasks' });
    await expect(dialog).toContainText('Marked for replanning: Fetch the tide tables.');
    const instructions = dialog.getByRole('textbox', { name: 'Instructions (optional)' });
    await expect(instructions).toHaveValue(new RegExp(`^Task fetch failed in run ${runId.slice(0, 8)} after 1 attempt: .*127\\.0\\.0\\.1:9`));
    // The operator words it their way before proposing.
    await instructions.press('ControlOrMeta+End');
    await instructions.pressSequentially(' Use a cached copy.');
    await expect(instructions).toHaveValue(/Use a cached copy\.$/);
    await expect(dialog.getByRole('button', { name: 'Propose replacements' })).toBeEnabled();

    // A run of another plan lends no error text: the dialog opens for the task, its instructions empty.
    const other = await api.create('Other', { planned_tasks: [{ task_id: 'fetch', description: 'Fetch elsewhere', execution_type: 'llm' }] });
    await page.goto(`/plans/${other.id}?replan=fetch&run=${runId}`);
    await expect(page.getByRole('dialog', { name: 'Replan selected tasks' }).getByRole('textbox', { name: 'Instructions (optional)' })).toHaveValue('');
  } finally {
    await request.delete(`/api/registry/llms/${model}`, { headers: adminHeaders });
  }
});
