import { createHash } from 'node:crypto';
import { adminHeaders } from './auth-support';
import { expect, test, type PlanEditor } from './fixtures';

// The approval gate end to end, as two people in two browsers: an editor (the signed-in
// browser state every UI test starts with) and an approver who signs in here. The
// executors' hand-off, GET /approved, is checked after every step.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

/** Opens the plan once laid out, edits one description and saves it with a message; the editor asks before a save that voids a standing approval. */
async function editDescription(editor: PlanEditor, id: string, from: string, to: string, message: string, { voidsApproval = false } = {}) {
  await editor.open(id);
  await editor.describe(from, to);
  await editor.save({ message, confirm: voidsApproval ? 'void approval' : undefined });
}

test('an editor submits, cannot approve; an approver approves; the next edit supersedes the approval', async ({ page, api, editor, reviewAs }) => {
  const { id, title } = await api.create('Shipments to approve', plan);

  // The editor edits and submits.
  await editDescription(editor, id, 'Fetch shipments', 'Fetch recent shipments', 'recent only');
  expect(await api.handOff(id)).toMatchObject({ status: 409, code: 'not_approved' });
  await page.getByRole('button', { name: 'Submit r2 for review' }).click();
  await expect(page.getByText('in review', { exact: true })).toBeVisible();
  expect(await api.handOff(id)).toMatchObject({ status: 409, code: 'not_approved' });

  // The editor cannot approve: no decision controls, and the API says 403.
  await page.getByRole('link', { name: 'Review', exact: true }).click();
  await expect(page.getByText('Approvers decide here; you have the editor role.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  const head = await api.head(id);
  const denied = await page.request.post(`/api/plans/${id}/approve`, { data: { revision: head.revision, content_hash: head.content_hash } });
  expect(denied.status()).toBe(403);

  // The approver finds it in the queue, reads the diff and approves.
  const review = await reviewAs('approver');
  const approver = review.page;
  await approver.goto('/reviews');
  await approver.getByRole('link', { name: title }).click();
  await expect(approver.getByRole('heading', { name: 'Changes since revision 1' })).toBeVisible();
  await expect(review.changesSince(1)).toContainText('Fetch recent shipments');
  await expect(approver.getByRole('region', { name: 'Validation' })).toContainText('No errors');
  await review.decide('Approve', 'Recent shipments only is right.');
  await expect(review.approveButton).toBeDisabled();
  expect(await api.handOff(id)).toEqual({ status: 200, code: undefined, revision: 2 });

  // The plan shows approved to the editor too.
  await page.goto('/');
  await expect(page.getByRole('row', { name: new RegExp(title) })).toContainText('approved');

  // One more edit: back to draft, the approval superseded, the hand-off refused as stale.
  await editDescription(editor, id, 'Summarise', 'Summarise by facility', 'group by facility', { voidsApproval: true });
  await expect(page.getByText('draft', { exact: true })).toBeVisible();
  expect(await api.handOff(id)).toMatchObject({ status: 409, code: 'stale' });
  await page.goto(`/plans/${id}/review`);
  await expect(page.getByRole('list', { name: 'Decisions' })).toContainText('superseded');
  await expect(page.getByRole('heading', { name: 'Changes since approved revision 2' })).toBeVisible();

  await page.getByRole('link', { name: 'History' }).click();
  const events = page.getByRole('list', { name: 'Audit events, oldest first' });
  for (const kind of ['Created', 'Submitted for review', 'Approved', 'Approval superseded']) await expect(events).toContainText(kind);
});

/** RFC 8785 canonical JSON for plan-shaped values, written here so the test checks the README's recipe, not the app's code. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

test('an approval covers the resources a plan routes to: moving nodes keeps it, changing the tool voids it', async ({ page, api, reviewAs }) => {
  // A tool of this test's own, so editing it voids no other test's approval.
  const tool = `binding_tool_${Date.now().toString(36)}`;
  const definition = { id: tool, description: 'Lists shipments', input_schema: { type: 'object', properties: { days: { type: 'integer' } } } };
  expect((await page.request.put(`/api/registry/tools/${tool}`, { data: definition })).status()).toBe(200);
  const { id, content_hash } = await api.create('Bound to its tool', {
    planned_tasks: [{ task_id: 'list', description: 'List shipments', execution_type: 'tool', tool_id: tool, arguments: { days: 7 } }],
  });
  await api.submitted(id, {});

  const review = await reviewAs('approver');
  await review.open(id);
  await expect(review.page.getByRole('region', { name: 'Registry resources' })).toContainText(`tools/${tool}`);
  await review.decide('Approve');

  // What an executor gets, and checks without any of Plangate's code.
  const approved = await (await page.request.get(`/api/plans/${id}/approved`, { headers: adminHeaders })).json();
  expect(approved.content_hash).toBe(content_hash);
  // Hash version 2: each task hashed on its own, then the plan over those hashes (the README's recipe).
  expect(approved.hash_version).toBe(2);
  const { plan: handedPlan, job, subgraphs } = approved.document;
  const envelope = { hash_version: 2, job, plan: { ...handedPlan, planned_tasks: handedPlan.planned_tasks.map((task: unknown) => sha256(canonical(task))) }, subgraphs };
  expect(sha256(canonical(envelope))).toBe(content_hash);
  const { hash, ...resources } = approved.resources;
  expect(sha256(canonical(resources))).toBe(hash);
  expect(resources.definitions.tools).toEqual([definition]);

  // Moving a node is a layout-only revision: still approved, still handed off.
  const head = await api.head(id);
  const moved = await api.save(id, { base_revision: head.revision, plan: head.plan, view: { positions: { list: { x: 420, y: 80 } } } });
  expect(await moved.json()).toEqual({ revision: 2, content_hash, layout_only: true });
  expect(await api.handOff(id)).toEqual({ status: 200, code: undefined, revision: 2 });
  await page.goto(`/plans/${id}/revisions`);
  await expect(page.getByRole('row', { name: /Revision 2/ })).toContainText('layout only');

  // Rewriting the tool's schema voids the approval: 409 naming the resource, shown on the plan and in the next review.
  expect((await page.request.put(`/api/registry/tools/${tool}`, { data: { ...definition, input_schema: { type: 'object', properties: {} } } })).status()).toBe(200);
  const stale = await page.request.get(`/api/plans/${id}/approved`, { headers: adminHeaders });
  expect(stale.status()).toBe(409);
  expect((await stale.json()).error).toMatchObject({ code: 'stale', reason: 'registry_changed', resources: [{ kind: 'tools', key: tool, change: 'changed' }] });
  await page.goto(`/plans/${id}`);
  await expect(page.getByRole('status').filter({ hasText: 'The approval of revision 1 is stale' })).toContainText(`tools/${tool} (changed)`);
  await page.goto(`/plans/${id}/review`);
  await expect(page.getByRole('list', { name: 'Changed resources' })).toContainText(`Changed tools/${tool}`);
});
