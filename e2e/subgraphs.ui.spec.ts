import type { Page } from '@playwright/test';
import { expect, test, type PlanEditor, type PlansApi } from './fixtures';

// SubGraphs on the canvas, as an operator optimises a plan: propose a grouping, apply it,
// collapse and expand a group, move a task between groups (and be refused when the move
// would make groups wait on each other), and save it as a revision.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch papers', execution_type: 'tool', tool_id: 'papers_search' },
    { task_id: 'clean', description: 'Clean citations', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'summarise', description: 'Summarise findings', execution_type: 'llm', dependencies: ['clean'] },
    { task_id: 'review', description: 'Review sources', execution_type: 'agent', agent_id: 'reviewer' },
  ],
};

async function openNewPlan(api: PlansApi, editor: PlanEditor): Promise<string> {
  const { id } = await api.create('SubGraph test plan', plan);
  await editor.open(id, { showing: 'Review sources' });
  return id;
}

const subgraph = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

test('optimise a plan into subgraphs, collapse and expand one, move a task between them, and save', async ({ page, api, editor }) => {
  const id = await openNewPlan(api, editor);

  await page.getByRole('button', { name: 'Optimise…' }).click();
  const panel = page.getByRole('dialog', { name: 'Optimise into SubGraphs' });
  await panel.getByRole('radio', { name: /Rule-based/ }).check();
  await panel.getByRole('button', { name: 'Propose grouping' }).click();
  const report = panel.getByLabel('Proposed grouping');
  await expect(report).toContainText('Subgraphs2');
  await expect(report).toContainText('Dispatches saved2');
  await panel.getByRole('button', { name: 'Apply grouping' }).click();
  await expect(panel).toHaveCount(0);

  await expect(subgraph(page, 'Subgraph sg-1, 3 tasks')).toBeVisible();
  await expect(subgraph(page, 'Subgraph sg-2, 1 task')).toBeVisible();

  await page.getByRole('button', { name: 'Collapse subgraph sg-1' }).click();
  await expect(subgraph(page, 'Subgraph sg-1, 3 tasks, collapsed')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Task Clean citations' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Expand subgraph sg-1' }).click();
  await expect(page.getByRole('group', { name: 'Task Clean citations' })).toBeVisible();
  await expect(subgraph(page, 'Subgraph sg-1, 3 tasks')).toBeVisible();

  // Clean into sg-2 would leave fetch and summarise in sg-1 on either side of it.
  await page.getByRole('group', { name: 'Task Clean citations' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByRole('combobox', { name: 'Subgraph' }).selectOption('sg-2');
  await expect(page.getByRole('alert').filter({ hasText: 'Subgraphs wait on each other' })).toBeVisible();
  await expect(inspector.getByRole('combobox', { name: 'Subgraph' })).toHaveValue('sg-1');

  await page.getByRole('group', { name: 'Task Review sources' }).click();
  await inspector.getByRole('combobox', { name: 'Subgraph' }).selectOption('sg-1');
  await expect(subgraph(page, 'Subgraph sg-1, 4 tasks')).toBeVisible();
  await expect(subgraph(page, 'Subgraph sg-2, 1 task')).toHaveCount(0);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Revision 2')).toBeVisible();
  const saved = await api.head(id);
  expect(saved.subgraphs).toEqual([{ subgraph_id: 'sg-1', task_ids: ['fetch', 'review', 'clean', 'summarise'], depends_on: [] }]);
  await page.reload();
  await expect(subgraph(page, 'Subgraph sg-1, 4 tasks')).toBeVisible();
});

test('drag a task into another subgraph, and undo the move in one step', async ({ page, api, editor }) => {
  await openNewPlan(api, editor);
  await page.getByRole('button', { name: 'Optimise…' }).click();
  const panel = page.getByRole('dialog', { name: 'Optimise into SubGraphs' });
  await panel.getByRole('button', { name: 'Propose grouping' }).click();
  await panel.getByRole('button', { name: 'Apply grouping' }).click();
  await expect(subgraph(page, 'Subgraph sg-2, 1 task')).toBeVisible();

  const task = (await page.getByRole('group', { name: 'Task Review sources' }).boundingBox())!;
  const box = (await subgraph(page, 'Subgraph sg-1, 3 tasks').boundingBox())!;
  await page.mouse.move(task.x + task.width / 2, task.y + task.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 15 });
  await page.mouse.up();
  await expect(subgraph(page, 'Subgraph sg-1, 4 tasks')).toBeVisible();
  await expect(subgraph(page, 'Subgraph sg-2, 1 task')).toHaveCount(0);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(subgraph(page, 'Subgraph sg-1, 3 tasks')).toBeVisible();
  await expect(subgraph(page, 'Subgraph sg-2, 1 task')).toBeVisible();
});

test('optimise a demo plan: its fan-out stays in parallel subgraphs and its tail chain becomes one, which collapses and expands', async ({ page, api, editor }) => {
  // A copy of its own: the demo plan stays as other tests expect it.
  const { id } = await api.copyOfDemo('Summarise research papers (seed 000)');
  await editor.open(id);
  await page.getByRole('button', { name: 'Optimise…' }).click();
  const panel = page.getByRole('dialog', { name: 'Optimise into SubGraphs' });
  await panel.getByRole('button', { name: 'Propose grouping' }).click();
  await expect(panel.getByLabel('Proposed grouping')).toContainText('Subgraphs5');
  await panel.getByRole('button', { name: 'Apply grouping' }).click();

  await expect(page.getByRole('group', { name: /^Subgraph sg-\d+, 1 task$/ })).toHaveCount(4);
  const chain = page.getByRole('group', { name: /^Subgraph sg-\d+, 3 tasks$/ });
  const chainId = /Subgraph (sg-\d+)/.exec((await chain.getAttribute('aria-label'))!)![1];
  await page.getByRole('button', { name: `Collapse subgraph ${chainId}` }).click();
  await expect(subgraph(page, `Subgraph ${chainId}, 3 tasks, collapsed`)).toBeVisible();
  await page.getByRole('button', { name: `Expand subgraph ${chainId}` }).click();
  await expect(subgraph(page, `Subgraph ${chainId}, 3 tasks`)).toBeVisible();
});
