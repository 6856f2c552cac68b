import { startOpenAiTestServer, type OpenAiTestServer } from '../scripts/test-servers/openai-server-test-support';
import { adminHeaders } from './auth-support';
import { axeViolations, expect, test, uniqueTitle } from './fixtures';

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
    await page.getByRole('alertdialog', { name: /^Run revision \d+\?$/ }).getByRole('button', { name: 'Run', exact: true }).click();
    // The run view's canvas may add its viewport (?view=) as soon as it settles.
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?|$)/);
    const runId = new URL(page.url()).pathname.split('/').at(-1)!;
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('needs replan', { timeout: 30_000 });

    // What failed and why is said above the graph, with the way on; the failed task's own panel offers it too.
    const nextStep = page.getByRole('region', { name: 'A task failed: the run needs a replan' });
    await expect(nextStep).toContainText('Fetch the tide tables');
    await expect(nextStep.getByRole('link', { name: 'Replan this task' })).toHaveAttribute('href', `/plans/${id}?replan=fetch&run=${runId}`);
    // Nothing is left to pause.
    await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
    await nextStep.getByRole('button', { name: 'Fetch the tide tables' }).click();
    const inspector = page.getByRole('region', { name: 'Task Fetch the tide tables in this run' });
    await expect(inspector.getByRole('button', { name: 'Retry task' })).toBeVisible();
    await inspector.getByRole('link', { name: 'Replan this task' }).click();

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

test.describe('continuing after a replan', () => {
  let llm: OpenAiTestServer;
  test.beforeAll(async () => {
    llm = await startOpenAiTestServer();
  });
  test.afterAll(async () => llm?.close());

  test('a failed run is continued with the fixed revision once it is approved: its finished tasks are carried, not run again', async ({ page, api, approve, request }) => {
    test.setTimeout(120_000);
    const broken = uniqueTitle('broken-llm').replace(/\s+/g, '-');
    const working = uniqueTitle('working-llm').replace(/\s+/g, '-');
    for (const [name, url] of [
      [broken, 'http://127.0.0.1:9/v1'],
      [working, llm.url],
    ]) {
      const registered = await request.put(`/api/registry/llms/${name}`, { headers: adminHeaders, data: { name, description: 'A test LLM', endpoint: { protocol: 'openai', url, model: 'test-model' } } });
      expect(registered.status()).toBe(200);
    }
    try {
      const { id } = await api.create('Continue me', {
        planned_tasks: [
          { task_id: 'prep', description: 'Prepare the port list', execution_type: 'llm', function_id: working, arguments: { port: 'Brest' } },
          { task_id: 'fetch', description: 'Fetch the tide tables', execution_type: 'llm', function_id: broken, arguments: { ports: '${step[0]}' }, parameters: { retries: 0 }, dependencies: ['prep'] },
          { task_id: 'parse', description: 'Parse the tables', execution_type: 'llm', function_id: working, arguments: { tables: '${step[1]}' }, dependencies: ['fetch'] },
        ],
      });
      await approve(id);
      const first = await api.head(id);
      const started = await page.request.post(`/api/plans/${id}/runs`, { data: { revision: first.revision, content_hash: first.content_hash } });
      expect(started.status()).toBe(201);
      const { run_id: failedRun } = await started.json();
      await page.goto(`/runs/${failedRun}`);
      await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('needs replan', { timeout: 30_000 });
      const nextStep = page.getByRole('region', { name: 'A task failed: the run needs a replan' });
      await expect(nextStep).toContainText('Fetch the tide tables');
      // The failure's path is drawn and said: the blocked task behind it.
      await expect(page.getByRole('group', { name: /^Task Parse the tables, blocked/ })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      // The fix: the failed task routed to a model that answers, approved as revision 2.
      expect((await api.saveTasks(id, (t) => (t.task_id === 'fetch' ? { ...t, function_id: working } : t), 'route fetch to a working model')).status()).toBe(200);
      await approve(id);
      const fixed = await api.head(id);

      await page.reload();
      await expect(nextStep).toContainText(`Revision ${fixed.revision} is approved.`);
      await nextStep.getByRole('button', { name: `Continue with revision ${fixed.revision}` }).click();
      await page.getByRole('alertdialog', { name: `Continue with revision ${fixed.revision}?` }).getByRole('button', { name: `Continue with revision ${fixed.revision}` }).click();
      await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?|$)/);
      await expect(page).not.toHaveURL(new RegExp(failedRun));
      await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('succeeded', { timeout: 30_000 });
      await expect(page.getByRole('link', { name: `continues run ${failedRun.slice(0, 8)}` })).toBeVisible();
      await expect(page.getByRole('group', { name: /^Task Prepare the port list,/ })).toContainText(`carried from run ${failedRun.slice(0, 8)}`);
      const continuation = new URL(page.url()).pathname.split('/').at(-1)!;
      // prep ran once, in the first run; fetch and parse once each, here.
      expect(llm.calls.filter((c) => c.idempotencyKey?.startsWith(`${continuation}:prep`))).toHaveLength(0);

      await page.goto(`/runs/${failedRun}`);
      await expect(page.getByRole('status').filter({ hasText: 'This run was continued in' })).toContainText(`run ${continuation.slice(0, 8)}`);
    } finally {
      await Promise.all([broken, working].map((name) => request.delete(`/api/registry/llms/${name}`, { headers: adminHeaders })));
    }
  });
});
