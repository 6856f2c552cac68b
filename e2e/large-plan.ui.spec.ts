import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { parseWfFormat } from '../lib/formats/wfformat';
import { taskDataFromWorkflow } from '../lib/formats/wfformat-plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '../scripts/wfcommons-traces';

// A real 2,122-task workflow: it must open, lay out in the worker and stay editable.
test('the montage trace opens, lays out, and can be dragged, edited and saved', async ({ page, api, editor }) => {
  test.setTimeout(90_000);
  const workflow = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
  const { id } = await api.create('Montage (WfCommons)', taskDataFromWorkflow(workflow));
  const target = workflow.tasks[1000];

  await page.goto(`/plans/${id}?task=${encodeURIComponent(target.task_id)}`);
  await editor.laidOut(60_000);
  await expect(page.getByText('2122 tasks')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue(target.description);

  const node = page.getByRole('group', { name: `Task ${target.description}` });
  const box = (await node.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + 70, { steps: 10 });
  await page.mouse.up();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  const moved = (await node.boundingBox())!;
  expect(moved.x - box.x).toBeGreaterThan(60);

  const description = page.getByRole('textbox', { name: 'Description' });
  await description.fill('Reproject one tile (checked by an operator)');
  await description.blur();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Revision 2')).toBeVisible();

  const saved = await api.head(id);
  const task = saved.plan.planned_tasks.find((t) => t.task_id === target.task_id)!;
  expect(task.description).toBe('Reproject one tile (checked by an operator)');
  expect(Object.keys(saved.view.positions)).toHaveLength(2122);

  // The canvas holds the tasks around the view, not all 2,122; a task far away is fitted
  // from its saved position and drawn when it is revealed.
  expect(await page.getByRole('group', { name: /^Task / }).count()).toBeLessThan(600);
  const at = saved.view.positions[target.task_id];
  const far = saved.plan.planned_tasks.reduce((best, t) => {
    const p = saved.view.positions[t.task_id];
    const q = saved.view.positions[best.task_id];
    return Math.hypot(p.x - at.x, p.y - at.y) > Math.hypot(q.x - at.x, q.y - at.y) ? t : best;
  });
  const farLabel = `${far.description}`;
  await expect(page.getByRole('group', { name: `Task ${farLabel}`, exact: true })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Find a task' }).fill(far.task_id);
  await page.getByRole('navigation', { name: 'Outline' }).getByRole('button', { name: new RegExp(farLabel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first().click();
  await expect(page.getByRole('group', { name: `Task ${farLabel}`, exact: true }).first()).toBeInViewport();

  // Its inspector lists the first 100 of the 2,121 tasks it could depend on, and finds any by searching.
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue(farLabel);
  const root = saved.plan.planned_tasks.find((t) => !t.dependencies?.length && t.task_id !== far.task_id && !far.dependencies?.includes(t.task_id))!;
  const dependsOn = page.getByRole('group', { name: 'Depends on' });
  const picker = dependsOn.getByRole('combobox', { name: 'Task to depend on' });
  await expect(picker.getByRole('option')).toHaveCount(101);
  await dependsOn.getByRole('searchbox', { name: 'Search tasks to depend on' }).fill(root.task_id);
  await picker.selectOption(root.task_id);
  await dependsOn.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dependsOn.getByRole('button', { name: new RegExp(`^Remove dependency on ${(root.description ?? root.task_id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })).toBeVisible();
});

// A plan over 500 tasks: its review page carries no tasks for the canvas. The tasks around the
// linked one are drawn from the page, the rest are read from the API, and then the task is
// selected as in the editor.
test('the review page of a 600-task plan opens at a linked task, lists its first tasks, counts them all, and takes a comment on any of them', async ({ page, api }) => {
  const planned_tasks = Array.from({ length: 600 }, (_, i) => ({
    task_id: `step-${i}`,
    description: `Step ${i}`,
    execution_type: 'llm',
    dependencies: i ? [`step-${i - 1}`] : [],
  }));
  const { id } = await api.create('Long plan to review', { planned_tasks });

  await page.goto(`/plans/${id}/review?task=step-300`);
  const canvas = page.getByRole('region', { name: 'Plan (read-only)' });
  // Bounded like the editor's first layout above: reading 600 tasks and the editor's code is the slowest step on a busy machine.
  await expect(canvas.getByRole('complementary', { name: 'Inspector' }).getByRole('textbox', { name: 'Description' })).toHaveValue('Step 300', { timeout: 60_000 });
  await expect(canvas.getByRole('group', { name: 'Task Step 300', exact: true })).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Tasks (600)', level: 2 })).toBeVisible();
  // The table and the list of new tasks show the first rows and say where the rest are; the
  // counts are the plan's, and so is what the approver has left to view.
  const table = page.getByRole('table', { name: 'Tasks and their fields' });
  await expect(table.getByRole('row')).toHaveCount(201);
  await expect(page.getByText('The first 200 of 600 tasks are shown; export the plan to read the rest.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tasks', exact: true }).getByRole('heading', { name: 'Tasks (600)', level: 3 })).toBeVisible();
  await expect(page.getByText("…and 400 more, in the plan's export.")).toBeVisible();
  // A comment can be about any task, not only the rows drawn: a big plan's task names come with
  // the tasks the canvas read, and a new thread is listed under its task's name.
  const comments = page.getByRole('region', { name: 'Comments', exact: true });
  const about = comments.getByRole('combobox', { name: 'About' });
  await about.fill('Step 450');
  await expect(about).toHaveAccessibleDescription('On task Step 450 (step-450).');
  await comments.getByRole('textbox', { name: 'New thread on Step 450' }).fill('Why does this step wait for the one before?');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByRole('list', { name: 'Comments on Step 450' })).toContainText('Why does this step wait for the one before?');
});
