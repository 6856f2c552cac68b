import { startOpenAiTestServer, type OpenAiTestServer } from '../scripts/test-servers/openai-server-test-support';
import { adminHeaders } from './auth-support';
import { axeViolations, expect, test, uniqueTitle } from './fixtures';

// A plan runs from its page and is watched live on the run view: three LLM tasks on an
// OpenAI-compatible server this spec starts (registered as the plan's LLM resource), the
// middle one gated. The editor starts the run; a second approver (four-eyes: not whoever
// started it) approves the gate in the run view; the run finishes.

let llm: OpenAiTestServer;
test.beforeAll(async () => {
  // Slow enough that a task is seen running before it succeeds.
  llm = await startOpenAiTestServer({ delayMs: 3000 });
});
test.afterAll(async () => llm?.close());

test('an approved plan runs from its page, its nodes change state live, and a gate is approved by another approver', async ({ page, api, approve, signedIn, editor, request }) => {
  test.setTimeout(120_000);
  const model = uniqueTitle('runs-llm').replace(/\s+/g, '-');
  const registered = await request.put(`/api/registry/llms/${model}`, {
    headers: adminHeaders,
    data: { name: model, description: 'The run spec’s LLM', endpoint: { protocol: 'openai', url: llm.url, model: 'test-model' } },
  });
  expect(registered.status()).toBe(200);
  try {
    const { id } = await api.create('Run me', {
      planned_tasks: [
        { task_id: 'gather', description: 'Gather the facts', execution_type: 'llm', function_id: model, instructions: 'List the facts', arguments: { topic: 'tides' } },
        { task_id: 'draft', description: 'Draft the summary', execution_type: 'llm', function_id: model, arguments: { facts: '${step[0]}' }, parameters: { requires_approval: true }, dependencies: ['gather'] },
        { task_id: 'polish', description: 'Polish the summary', execution_type: 'llm', function_id: model, arguments: { draft: '${step[1]}' }, dependencies: ['draft'] },
      ],
    });
    await approve(id);

    await editor.open(id, { showing: 'Gather the facts' });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // Running calls the plan's resources: asked first.
    await page.getByRole('alertdialog', { name: /^Run revision \d+\?$/ }).getByRole('button', { name: 'Run', exact: true }).click();
    // The canvas may add its viewport (?view=…) once it settles.
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}(\?|$)/);
    const runUrl = new URL(page.url()).pathname;

    const node = (label: string) => page.getByRole('group', { name: new RegExp(`^Task ${label},`) });
    await expect(node('Gather the facts')).toContainText('running');
    await expect(node('Gather the facts')).toContainText('succeeded');
    await expect(node('Draft the summary')).toContainText('awaiting approval');
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('awaiting approval');
    // The editor started the run: watching, not deciding.
    const gate = page.getByRole('region', { name: 'Gate Draft the summary' });
    await expect(gate).toContainText('An approver decides this gate.');
    await expect(gate.getByRole('button', { name: 'Approve' })).toHaveCount(0);

    expect(await axeViolations(page)).toEqual([]);

    const approver = await signedIn('approver2');
    await approver.goto(runUrl);
    const theirGate = approver.getByRole('region', { name: 'Gate Draft the summary' });
    await theirGate.getByRole('textbox', { name: 'Comment (optional)' }).fill('Looks right');
    await theirGate.getByRole('button', { name: 'Approve' }).click();

    // The editor's view follows without a reload.
    await expect(node('Draft the summary')).toContainText(/running|succeeded/);
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('succeeded', { timeout: 30_000 });
    await expect(node('Polish the summary')).toContainText('succeeded');
    expect(llm.calls.length).toBeGreaterThanOrEqual(3);

    // The selected task's record: what it was sent and what it answered.
    // Every task says what happened to it in words: state, attempts and time taken.
    await expect(node('Gather the facts')).toContainText(/1 attempt · \d/);
    await node('Draft the summary').click();
    const inspector = page.getByRole('region', { name: 'Task Draft the summary in this run' });
    await expect(inspector).toContainText('Approved at the gate by approver2');
    await expect(inspector).toContainText('“Looks right”');
    await expect(inspector.getByRole('region', { name: 'Output' })).toContainText('echo:');
    await page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: 'Polish the summary' }).click();
    await expect(page.getByRole('region', { name: 'Task Polish the summary in this run' }).getByRole('heading', { name: 'Polish the summary' })).toBeVisible();
    await page.getByRole('button', { name: 'Close task Polish the summary' }).click();
    await expect(page.getByRole('complementary', { name: 'Selected task' })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`/plans/${id}/runs`);
    await expect(page.getByRole('table', { name: 'Runs, newest first' })).toContainText('succeeded');
  } finally {
    await request.delete(`/api/registry/llms/${model}`, { headers: adminHeaders });
  }
});

test('the inspector marks a task as needing approval before it runs, as one undoable edit', async ({ page, api, editor }) => {
  const { id } = await api.create('Gate me', { planned_tasks: [{ task_id: 'send', description: 'Send the report', execution_type: 'llm' }] });
  await editor.open(id, { showing: 'Send the report' });
  await editor.select('Send the report');
  const gated = editor.inspector.getByRole('checkbox', { name: 'Requires approval before it runs' });
  const parameters = editor.inspector.getByRole('textbox', { name: 'Parameters (JSON)' });
  await gated.check();
  await expect(parameters).toHaveValue(/"requires_approval": true/);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(gated).not.toBeChecked();
  await expect(parameters).not.toHaveValue(/requires_approval/);
  await gated.check();
  await editor.save({ message: 'gate the report' });
  expect((await api.task(id, 'send'))?.parameters).toEqual({ requires_approval: true });
});

test('an editor cancels a run from the run view', async ({ page, api, approve, editor, request }) => {
  test.setTimeout(60_000);
  // A model that never answers within the test: the first call is surely under way when the
  // run is cancelled, however slow the machine, so cancelling must abort it.
  const silent = await startOpenAiTestServer({ delayMs: 120_000 });
  const model = uniqueTitle('runs-llm').replace(/\s+/g, '-');
  await request.put(`/api/registry/llms/${model}`, { headers: adminHeaders, data: { name: model, description: 'Silent', endpoint: { protocol: 'openai', url: silent.url, model: 'test-model' } } });
  try {
    const { id } = await api.create('Cancel me', {
      planned_tasks: [
        { task_id: 'one', description: 'First step', execution_type: 'llm', function_id: model, arguments: {} },
        { task_id: 'two', description: 'Second step', execution_type: 'llm', function_id: model, arguments: {}, dependencies: ['one'] },
      ],
    });
    await approve(id);
    await editor.open(id, { showing: 'First step' });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('alertdialog', { name: /^Run revision \d+\?$/ }).getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page).toHaveURL(/\/runs\//);
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('running');
    // Cancelling is asked first; saying no changes nothing.
    await page.getByRole('button', { name: 'Cancel run' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this run?' });
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('running');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await confirm.getByRole('button', { name: 'Cancel run' }).click();
    await expect(page.getByRole('status', { name: 'Run state' })).toHaveText('cancelled');
    // The call under way is aborted; the task that never started is cancelled with the run.
    await expect(page.getByRole('group', { name: /^Task First step,/ })).toContainText('cancelled');
    await expect(page.getByRole('group', { name: /^Task Second step,/ })).toContainText('cancelled');
    await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  } finally {
    await request.delete(`/api/registry/llms/${model}`, { headers: adminHeaders });
    await silent.close();
  }
});
