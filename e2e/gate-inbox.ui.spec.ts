import type { Page } from '@playwright/test';
import { startOpenAiTestServer, type OpenAiTestServer } from '../scripts/test-servers/openai-server-test-support';
import { adminHeaders } from './auth-support';
import { axeViolations, expect, test, uniqueTitle } from './fixtures';

// A gate that waits reaches the people who may decide it: the editor (the browser state every
// UI test starts with) writes the plan and starts its run, so four-eyes keeps them from
// deciding; approver2 finds the gate in their inbox and on the review queue, follows the link
// to the run and approves it there, and the run finishes. The editor hears nothing to decide.

let llm: OpenAiTestServer;
test.beforeAll(async () => {
  llm = await startOpenAiTestServer();
});
test.afterAll(async () => llm?.close());

const gateItem = (page: Page, title: string) => page.getByRole('list', { name: 'Inbox items' }).getByRole('listitem').filter({ hasText: 'Gate waiting' }).filter({ hasText: title });

test('a waiting gate appears in an approver’s inbox and on the review queue, and is decided one click from there', async ({ page, api, approve, signedIn, request }) => {
  // Two people sign in and a run goes through its gate: on two busy cores this takes a while.
  test.setTimeout(120_000);
  const model = uniqueTitle('gate-llm').replace(/\s+/g, '-');
  // Registered before the plan is written, so the admin token changed nothing the approval covers.
  const registered = await request.put(`/api/registry/llms/${model}`, {
    headers: adminHeaders,
    data: { name: model, description: 'The gate spec’s LLM', endpoint: { protocol: 'openai', url: llm.url, model: 'test-model' } },
  });
  expect(registered.status()).toBe(200);
  try {
    const plan = await api.create('Gate inbox', {
      planned_tasks: [
        { task_id: 'notice', description: 'Draft the customer notice', execution_type: 'llm', function_id: model, instructions: 'Draft it', arguments: { topic: 'delays' }, parameters: { requires_approval: true } },
      ],
    });
    await approve(plan.id);
    const started = await page.request.post(`/api/plans/${plan.id}/runs`, { data: { revision: plan.revision, content_hash: plan.content_hash } });
    expect(started.status()).toBe(201);
    const { run_id: runId } = await started.json();
    const short = runId.slice(0, 8);

    // approver2 (neither the author nor the starter) is told, with a link to the run.
    const approver = await signedIn('approver2');
    await approver.goto('/inbox');
    await expect(approver.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    const item = gateItem(approver, plan.title);
    await expect(item).toContainText(`Task notice of run ${short} (r${plan.revision} of “${plan.title}”, started by editor) waits at its gate for your decision.`);
    await expect(item).toContainText('Unread');
    const link = item.getByRole('link', { name: `Decide at the gate of notice (run ${short} of “${plan.title}”)` });
    await expect(link).toHaveAttribute('href', `/runs/${runId}`);
    expect(await axeViolations(approver)).toEqual([]);

    // The review queue lists it too, under "Gates waiting".
    await approver.goto('/reviews');
    const gates = approver.getByRole('region', { name: 'Gates waiting' });
    await expect(gates.getByRole('link', { name: `Decide notice in run ${short} of “${plan.title}”` })).toHaveAttribute('href', `/runs/${runId}`);
    expect(await axeViolations(approver)).toEqual([]);

    // One click from the inbox: the run, where the gate is approved.
    await approver.goto('/inbox');
    await gateItem(approver, plan.title).getByRole('link', { name: `Decide at the gate of notice (run ${short} of “${plan.title}”)` }).click();
    await expect(approver).toHaveURL(new RegExp(`/runs/${runId}(\\?|$)`));
    const gate = approver.getByRole('region', { name: 'Gate Draft the customer notice' });
    await expect(gate.getByRole('button', { name: 'Approve' })).toBeVisible();
    expect(await axeViolations(approver)).toEqual([]);
    await gate.getByRole('textbox', { name: 'Comment (optional)' }).fill('Fine to send');
    await gate.getByRole('button', { name: 'Approve' }).click();
    await expect(approver.getByRole('status', { name: 'Run state' })).toHaveText('succeeded', { timeout: 60_000 });
    // Decided, the gate leaves the review queue.
    await approver.goto('/reviews');
    await expect(approver.getByRole('heading', { name: 'Review queue', level: 1 })).toBeVisible();
    await expect(approver.getByRole('link', { name: `Decide notice in run ${short} of “${plan.title}”` })).toHaveCount(0);

    // The editor wrote the plan and started the run: nothing to decide reaches them.
    await page.goto('/inbox');
    await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    await expect(gateItem(page, plan.title)).toHaveCount(0);
  } finally {
    await request.delete(`/api/registry/llms/${model}`, { headers: adminHeaders });
  }
});

test('an approver edits a gate’s input in their inbox and approves it: exactly that input is sent, and the run and the history say so', async ({ page, api, approve, signedIn, request }) => {
  test.setTimeout(120_000);
  const model = uniqueTitle('gate-edit-llm').replace(/\s+/g, '-');
  const registered = await request.put(`/api/registry/llms/${model}`, {
    headers: adminHeaders,
    data: { name: model, description: 'The gate spec’s LLM', endpoint: { protocol: 'openai', url: llm.url, model: 'test-model' } },
  });
  expect(registered.status()).toBe(200);
  try {
    const label = uniqueTitle('Send the delay notice');
    const plan = await api.create('Gate edit', {
      planned_tasks: [{ task_id: 'notice', description: label, execution_type: 'llm', function_id: model, arguments: { topic: 'delays' }, parameters: { requires_approval: true } }],
    });
    await approve(plan.id);
    const head = await api.head(plan.id);
    const started = await page.request.post(`/api/plans/${plan.id}/runs`, { data: { revision: head.revision, content_hash: head.content_hash } });
    expect(started.status()).toBe(201);
    const { run_id: runId } = await started.json();

    const approver = await signedIn('approver2');
    await approver.goto('/inbox');
    const gates = approver.getByRole('region', { name: /^Gates waiting for you/ });
    const card = gates.getByRole('region', { name: `Gate ${label}` });
    await expect(card.getByRole('region', { name: `Input of ${label}` })).toContainText('delays');
    expect(await axeViolations(approver)).toEqual([]);

    // A rejection needs a reason: the button waits for one.
    await card.getByRole('button', { name: 'Reject…' }).click();
    await expect(card.getByRole('button', { name: 'Reject', exact: true })).toBeDisabled();
    await card.getByRole('button', { name: 'Back' }).click();

    await card.getByRole('button', { name: 'Edit input' }).click();
    const editor = card.getByRole('textbox', { name: `Input to send instead (${label})` });
    await editor.fill('{"topic": "storm delays", "tone": "calm"');
    await card.getByRole('button', { name: 'Approve with this input' }).click();
    // Not JSON: said where it was typed, nothing sent.
    await expect(card.getByRole('alert')).toContainText('Invalid JSON');
    await editor.fill('{"topic": "storm delays", "tone": "calm"}');
    await card.getByRole('textbox', { name: 'Comment (optional)' }).fill('Say it is the storm');
    await card.getByRole('button', { name: 'Approve with this input' }).click();
    await expect(card).toHaveCount(0);

    // The executor received exactly the edited input.
    await expect.poll(() => llm.calls.filter((c) => c.idempotencyKey === `${runId}:notice:1`).length, { timeout: 30_000 }).toBe(1);
    const call = llm.calls.find((c) => c.idempotencyKey === `${runId}:notice:1`)!;
    const messages = (call.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(JSON.parse(messages.find((m) => m.role === 'user')!.content)).toEqual({ topic: 'storm delays', tone: 'calm' });

    // The run view says who changed it; the history records it with the input's hash.
    await approver.goto(`/runs/${runId}`);
    await expect(approver.getByRole('status', { name: 'Run state' })).toHaveText('succeeded', { timeout: 30_000 });
    const node = approver.getByRole('group', { name: new RegExp(`^Task ${label},`) });
    await expect(node).toContainText('input edited');
    await node.click();
    const panel = approver.getByRole('region', { name: `Task ${label} in this run` });
    await expect(panel).toContainText('Input edited at the gate by approver2');
    await expect(panel.getByRole('region', { name: 'Input', exact: true })).toContainText('storm delays');
    await approver.goto(`/plans/${plan.id}/history`);
    const event = approver.getByRole('list', { name: 'Audit events, oldest first' }).getByRole('listitem').filter({ hasText: 'Approved at a gate' });
    await expect(event).toContainText('input edited at the gate');
    await expect(event).toContainText('by approver2');
    await expect(event).toContainText('Say it is the storm');
  } finally {
    await request.delete(`/api/registry/llms/${model}`, { headers: adminHeaders });
  }
});
