import { axeViolations, expect, test, type PlansApi } from './fixtures';

// The review page as an approver reads it before deciding: a replacement's fields against
// the task it replaces, a first revision's tasks with their fields, the task table, the
// canvas's marks (said in words, not colour alone) and the reviewer's "viewed" marks.
// The plans are made over the API as the editor (the browser state every UI test starts
// with); approver2 reads them, in a context of its own.

const OLD_INSTRUCTIONS = 'Summarise the shipments in one line.';
const NEW_INSTRUCTIONS = 'Summarise the shipments per facility, with totals and the three largest contaminants.';


test('an approver sees a replaced task against the task it replaces, instructions included', async ({ api, reviewAs }) => {
  const { id } = await api.create('Replaced summary', {
    planned_tasks: [
      { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
      { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'], instructions: OLD_INSTRUCTIONS },
    ],
  });

  // Revision 2 replaces `summarise` as the replanner does: a new id naming the old one in main_task_id.
  const head = await api.head(id);
  const replacement = { task_id: 'summarise_v2', main_task_id: 'summarise', description: 'Summarise per facility', execution_type: 'llm', dependencies: ['fetch'], instructions: NEW_INSTRUCTIONS };
  const tasks = [...head.plan.planned_tasks.filter((t) => t.task_id !== 'summarise'), replacement];
  const saved = await api.save(id, { base_revision: head.revision, plan: { ...head.plan, planned_tasks: tasks }, message: 'replan the summary' });
  expect(saved.status()).toBe(200);
  await api.submitted(id, {});

  const review = await reviewAs('approver2');
  await review.open(id);
  const changes = review.changesSince(1);
  const replaced = changes.getByRole('group', { name: 'summarise_v2 replaces summarise' });
  await expect(replaced.getByRole('term').filter({ hasText: 'instructions' })).toBeVisible();
  await expect(replaced.getByText(NEW_INSTRUCTIONS)).toBeVisible();
  await expect(replaced.getByText(OLD_INSTRUCTIONS)).toBeVisible();
  await expect(replaced.getByRole('term').filter({ hasText: 'description' })).toBeVisible();
  // A replacement is not also listed as an unrelated addition and removal.
  await expect(changes.getByRole('region', { name: 'Tasks added' })).toHaveCount(0);
  await expect(changes.getByRole('region', { name: 'Tasks removed' })).toHaveCount(0);

  // The task table holds revision 2's tasks with their fields; the canvas is tall; the decision stays.
  await expect(review.tasks.getByRole('row').filter({ hasText: 'summarise_v2' })).toContainText(NEW_INSTRUCTIONS);
  await expect(review.tasks.getByRole('row').filter({ hasText: 'Fetch shipments' })).toContainText('shipments_list');
  const canvas = await review.canvas.boundingBox();
  expect(canvas!.height).toBeGreaterThan(500);
  await expect(review.approveButton).toBeEnabled();
});

test('a first revision lists every task with its fields', async ({ api, reviewAs }) => {
  const { id } = await api.create('First revision fields', {
    planned_tasks: [
      {
        task_id: 'fetch',
        description: 'Fetch shipments',
        execution_type: 'l2_task',
        parameters: { sub_type: 'tools', stage2: { uid: 'shipments_list', input_data: { limit: 14 } } },
        tool_id: 'shipments_list',
        arguments: { limit: 14 },
        estimate_data: { latency_ms: 1200 },
      },
      { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'], instructions: OLD_INSTRUCTIONS, convertor_code: 'return input.items.length;' },
    ],
  });
  await api.submitted(id, {});

  const review = await reviewAs('approver2');
  const approver = review.page;
  await review.open(id);
  const first = approver.getByRole('region', { name: 'Revision 1: every task' });
  await expect(first).toContainText('first revision');
  const fetch = first.getByRole('group', { name: 'Task fetch' });
  await expect(fetch).toContainText('l2_task (kind: tool)');
  await expect(fetch).toContainText('shipments_list');
  await expect(fetch.getByRole('term').filter({ hasText: 'Stage 2 input (parameters.stage2)' })).toBeVisible();
  await expect(fetch).toContainText('"limit":14');
  await expect(fetch.getByRole('term').filter({ hasText: 'estimate_data' })).toBeVisible();
  const summarise = first.getByRole('group', { name: 'Task summarise' });
  await expect(summarise.getByText(OLD_INSTRUCTIONS)).toBeVisible();
  await expect(summarise).toContainText('return input.items.length;');
  await expect(summarise).toContainText('fetch');
  await expect(review.tasks.getByRole('row')).toHaveCount(3);

  // Nothing to compare a first revision with: the legend says so and no task is marked.
  const canvas = review.canvas;
  await expect(canvas).toContainText('every task is new, so no task is marked');
  await expect(canvas.getByRole('group', { name: 'Task Fetch shipments' })).toBeVisible();
  await expect(canvas.getByRole('group', { name: /^Task Summarise/ })).toHaveAccessibleName('Task Summarise');
});

/** A plan whose revision 2 replaces `summarise`, adds `notify` and drops `archive`; returns its id. */
async function replannedPlan(api: PlansApi, title: string): Promise<string> {
  const { id } = await api.create(title, {
    planned_tasks: [
      { task_id: 'fetch', description: 'Fetch shipments', execution_type: 'tool', tool_id: 'shipments_list' },
      { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'], instructions: OLD_INSTRUCTIONS },
      { task_id: 'archive', description: 'Archive the raw data', execution_type: 'tool', tool_id: 'shipments_list', dependencies: ['fetch'] },
    ],
  });
  const head = await api.head(id);
  const kept = head.plan.planned_tasks.filter((t) => t.task_id === 'fetch');
  const tasks = [
    ...kept,
    { task_id: 'summarise_v2', main_task_id: 'summarise', description: 'Summarise per facility', execution_type: 'llm', dependencies: ['fetch'], instructions: NEW_INSTRUCTIONS },
    { task_id: 'notify', description: 'Notify the facility', execution_type: 'llm', dependencies: ['summarise_v2'] },
  ];
  const saved = await api.save(id, { base_revision: head.revision, plan: { ...head.plan, planned_tasks: tasks }, message: 'replan' });
  expect(saved.status()).toBe(200);
  return id;
}

test('the review canvas marks replaced, added and removed tasks in words, with a legend', async ({ api, reviewAs }) => {
  const id = await replannedPlan(api, 'Marked canvas');
  const review = await reviewAs('approver2');
  const approver = review.page;
  await review.open(id);
  const canvas = review.canvas;
  await expect(canvas.getByRole('group', { name: 'Task Summarise per facility, replaces summarise' })).toBeVisible();
  await expect(canvas.getByRole('group', { name: 'Task Notify the facility, added' })).toBeVisible();
  await expect(canvas.getByRole('group', { name: 'Task Fetch shipments' })).toBeVisible();
  // Removed tasks stay on the canvas as ghosts, named as removed (and by what replaced them).
  await expect(canvas.getByRole('group', { name: 'Removed task Summarise (summarise), replaced by summarise_v2' })).toBeVisible();
  await expect(canvas.getByRole('group', { name: 'Removed task Archive the raw data (archive)' })).toBeVisible();
  expect(await axeViolations(approver)).toEqual([]);

  const legend = canvas.getByRole('list', { name: 'Canvas legend' });
  await expect(canvas).toContainText('Marked against revision 1');
  await expect(legend.getByRole('listitem').filter({ hasText: 'replaces X' })).toContainText('1 task replaces a removed one');
  await expect(legend.getByRole('listitem').filter({ hasText: 'added' })).toContainText('1 task new');
  await expect(legend.getByRole('listitem').filter({ hasText: 'drawn dashed' })).toContainText('2 tasks removed, drawn dashed: summarise (replaced by summarise_v2), archive');
  // A removed task in the legend leads to its entry in the diff.
  await legend.getByRole('link', { name: 'archive' }).click();
  await expect(approver).toHaveURL(/#diff-archive$/);
  await expect(approver.getByRole('group', { name: 'Task archive removed' })).toBeInViewport();
});

test('a task marked viewed stays viewed after a reload, and a new revision starts unviewed', async ({ api, reviewAs }) => {
  const id = await replannedPlan(api, 'Viewed marks');
  const review = await reviewAs('approver2');
  const approver = review.page;
  await review.open(id);
  const decision = approver.getByRole('region', { name: 'Decision', exact: true });
  await expect(decision.getByRole('status')).toHaveText('0 of 3 tasks viewed');

  const changes = review.changesSince(1);
  const replaced = changes.getByRole('group', { name: 'summarise_v2 replaces summarise' });
  await expect(replaced.getByText(NEW_INSTRUCTIONS)).toBeVisible();
  await replaced.getByRole('checkbox', { name: 'Viewed summarise_v2' }).check();
  await expect(decision.getByRole('status')).toHaveText('1 of 3 tasks viewed');
  // A viewed entry folds, as a viewed file does in a pull request, and opens again on request.
  await expect(replaced.getByText(NEW_INSTRUCTIONS)).toHaveCount(0);
  await replaced.getByRole('button', { name: 'Show fields of summarise_v2' }).click();
  await expect(replaced.getByText(NEW_INSTRUCTIONS)).toBeVisible();
  // The task table's box is the same mark.
  const table = review.tasks;
  await expect(table.getByRole('checkbox', { name: 'Viewed summarise_v2' })).toBeChecked();
  expect(await axeViolations(approver)).toEqual([]);
  await table.getByRole('checkbox', { name: 'Viewed fetch' }).check();
  await expect(decision.getByRole('status')).toHaveText('2 of 3 tasks viewed');

  await approver.reload();
  await expect(decision.getByRole('status')).toHaveText('2 of 3 tasks viewed');
  await expect(changes.getByRole('checkbox', { name: 'Viewed summarise_v2' })).toBeChecked();
  await expect(table.getByRole('checkbox', { name: 'Viewed fetch' })).toBeChecked();
  await expect(table.getByRole('checkbox', { name: 'Viewed notify' })).not.toBeChecked();
  await expect(replaced.getByText(NEW_INSTRUCTIONS)).toHaveCount(0);

  // Unticking takes the mark away again.
  await table.getByRole('checkbox', { name: 'Viewed fetch' }).uncheck();
  await expect(decision.getByRole('status')).toHaveText('1 of 3 tasks viewed');

  // The editor saves revision 3: the marks belong to revision 2, so revision 3 starts unviewed,
  // and the diff shows only what changed since the revision approver2 last viewed.
  expect((await api.saveTasks(id, (t) => (t.task_id === 'notify' ? { ...t, description: 'Notify the facility manager' } : t))).status()).toBe(200);
  await approver.reload();
  await expect(table.getByRole('row').filter({ hasText: 'notify' })).toContainText('Notify the facility manager');
  await expect(decision.getByRole('status')).toHaveText('0 of 3 tasks viewed');
  await expect(table.getByRole('checkbox', { name: 'Viewed summarise_v2' })).not.toBeChecked();
  const sinceViewed = approver.getByRole('region', { name: 'Changes since you last viewed it (revision 2)' });
  await expect(sinceViewed.getByRole('group', { name: 'Task notify changed' })).toContainText('Notify the facility manager');
  await expect(sinceViewed.getByRole('group', { name: 'summarise_v2 replaces summarise' })).toHaveCount(0);
});
