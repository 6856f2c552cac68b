import { readFileSync } from 'node:fs';
import path from 'node:path';
import { axeViolations, expect, test } from './fixtures';
import { parseWfFormat } from '../lib/formats/wfformat';
import { taskDataFromWorkflow } from '../lib/formats/wfformat-plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '../scripts/wfcommons-traces';

// The 2,122-task montage trace opens as an overview: one box per tool and level, readable
// when the whole plan fits; search marks the boxes holding matches; opening a box shows
// its tasks on the task canvas, and zooming out of that goes back to the overview.
test('a big plan opens in a readable overview, is searched there, and an aggregate opens into its tasks', async ({ page, api, editor }) => {
  test.setTimeout(120_000);
  const workflow = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
  const { id } = await api.create('Montage overview', taskDataFromWorkflow(workflow));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/plans/${id}`);

  const overview = page.getByLabel('Plan overview');
  const diffFit = overview.getByRole('button', { name: /^mDiffFit × 1,890 tasks, level 2/ });
  await expect(diffFit).toBeVisible();
  await expect(page.getByRole('button', { name: 'Overview', pressed: true })).toBeVisible();
  await expect(page).toHaveURL(/[?&]overview=target/);

  // Fitted whole: every box is on screen and its two label lines are at least 11 px high.
  const aggregates = overview.getByRole('button', { name: /: show its tasks$/ });
  await expect(aggregates).toHaveCount(8);
  const canvas = (await overview.boundingBox())!;
  for (const aggregate of await aggregates.all()) {
    const box = (await aggregate.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(canvas.x);
    expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width + 1);
    for (const label of await aggregate.locator('[data-aggregate-label]').all()) {
      expect((await label.boundingBox())!.height).toBeGreaterThanOrEqual(11);
    }
  }
  expect(await axeViolations(page)).toEqual([]);

  // Grouped by execution type, the plan is one box of tools per level.
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('Execution type');
  await expect(overview.getByRole('button', { name: /^Tool × 1,890 tasks/ })).toBeVisible();
  await expect(page).toHaveURL(/[?&]overview=type/);
  await page.getByRole('combobox', { name: 'Group by' }).selectOption('What it runs');

  // Searching a tool marks the box holding its tasks and fades the rest.
  await page.getByRole('searchbox', { name: 'Find a task' }).fill('mBackground');
  const background = overview.getByRole('button', { name: /^mBackground × 108 tasks, level 5, 108 matches/ });
  await expect(background).toBeVisible();
  // The box's frame (the button's parent) carries the fade.
  await expect(diffFit.locator('..')).toHaveCSS('opacity', '0.3');
  await expect(background.locator('..')).toHaveCSS('opacity', '1');
  await page.getByRole('searchbox', { name: 'Find a task' }).fill('');

  // Opening an aggregate (here from the keyboard) shows its tasks, readable, on the task canvas.
  await overview.getByRole('button', { name: /^mProject × 108 tasks/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Tasks', pressed: true })).toBeVisible();
  const projected = page.getByRole('group', { name: /^Task mProject_/ });
  await expect(projected.first()).toBeVisible();
  expect(await projected.count()).toBeGreaterThan(3);
  await expect(page).not.toHaveURL(/[?&]overview=/);

  // Zooming out past reading (the wheel, over the canvas) gives way to the overview.
  const tasksCanvas = page.getByLabel('Plan graph');
  const area = (await tasksCanvas.boundingBox())!;
  await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
  await expect(diffFit).toBeVisible();

  // And opening one with the mouse works the same.
  await overview.getByRole('button', { name: /^mViewer × 4 tasks/ }).click();
  await expect(page.getByRole('group', { name: /^Task mViewer_/ })).toHaveCount(4);
  // Their dependencies are drawn: on a plan this big, those of the tasks in and around the view.
  const drawnEdges = page.getByLabel('Plan graph').locator('.react-flow__edge');
  await expect.poll(() => drawnEdges.count()).toBeGreaterThan(0);
  expect(await drawnEdges.count()).toBeLessThan(500);

  // Fit view on a plan this big is the overview again.
  await page.getByRole('button', { name: 'Fit view', exact: true }).click();
  await expect(diffFit).toBeVisible();
  await editor.laidOut(60_000);
});

// A big plan's page carries only its overview: it is on screen while the tasks load, and an
// aggregate opened meanwhile opens onto its tasks once they arrive.
test('a big plan shows its overview while its tasks load, and opens an aggregate chosen meanwhile', async ({ page, api, editor }) => {
  test.setTimeout(90_000);
  const fetchers = Array.from({ length: 300 }, (_, i) => ({ task_id: `fetch_${i}`, description: `Fetch page ${i}`, execution_type: 'tool', tool_id: 'fetcher' }));
  const parsers = fetchers.map((_, i) => ({ task_id: `parse_${i}`, description: `Parse page ${i}`, execution_type: 'tool', tool_id: 'parser', dependencies: [`fetch_${i}`] }));
  const { id } = await api.create('Progressive opening', { task_id: 'crawl', planned_tasks: [...fetchers, ...parsers] });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/plans/${id}/revisions/*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/plans/${id}`);

  const overview = page.getByLabel('Plan overview');
  await expect(page.getByRole('status').filter({ hasText: "Loading the plan's 600 tasks…" })).toBeVisible();
  await expect(overview.getByRole('button', { name: /^parser × 300 tasks, level 2/ })).toBeVisible();
  await overview.getByRole('button', { name: /^fetcher × 300 tasks, level 1/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'then opening 300 of them' })).toBeVisible();

  release();
  await expect(page.getByRole('button', { name: 'Tasks', pressed: true })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Task Fetch page / }).first()).toBeVisible();

  // A link to one task loads the tasks the same way, then opens at that task.
  await page.goto(`/plans/${id}?task=parse_7`);
  await expect(page.getByRole('group', { name: 'Task Parse page 7', exact: true })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Tasks', pressed: true })).toBeVisible();
  await expect(page).toHaveURL(/[?&]task=parse_7/);

  // A save made elsewhere renders the page again with the new head; the editor stays, with
  // its unsaved edit, and offers the newer revision.
  await editor.describe('Parse page 7', 'Parse page 7 again');
  expect((await api.saveTasks(id, (t) => (t.task_id === 'fetch_0' ? { ...t, description: 'Fetch the first page' } : t))).status()).toBe(200);
  await expect(page.getByRole('status').filter({ hasText: 'saved r2' })).toBeVisible({ timeout: 10_000 });
  // The page has rendered again: its header offers the new head.
  await expect(page.getByRole('button', { name: 'Submit r2 for review' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Task Parse page 7 again', exact: true })).toBeVisible();
  await expect(page.getByText(/^Revision 1/)).toContainText('Unsaved changes');
});

/** A 600-task plan, 40 columns of 15 steps each waiting on the one to its left, with saved positions. */
function gridPlan() {
  const steps = Array.from({ length: 40 }, (_, column) =>
    Array.from({ length: 15 }, (_, row) => ({
      task_id: `step_${column}_${row}`,
      description: `Step ${column}.${row}`,
      execution_type: 'tool',
      tool_id: 'worker',
      dependencies: column ? [`step_${column - 1}_${row}`] : [],
    })),
  ).flat();
  const positions = Object.fromEntries(steps.map((task) => {
    const [, column, row] = task.task_id.split('_').map(Number);
    return [task.task_id, { x: column! * 320, y: row! * 120 }];
  }));
  return { plan: { task_id: 'grid', planned_tasks: steps }, view: { positions } };
}

test('a link to a task of a big plan shows the tasks around it while the plan loads, and the editor takes over where it was', async ({ page, api }) => {
  test.setTimeout(90_000);
  const grid = gridPlan();
  const { id } = await api.create('Opened at a task', grid.plan, { view: grid.view });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/plans/${id}/revisions/*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/plans/${id}?task=step_20_7`);

  // Before the plan has arrived: the linked task, drawn among its neighbours, read-only.
  await expect(page.getByRole('status').filter({ hasText: "Loading the plan's 600 tasks… Meanwhile the" })).toContainText('around task step_20_7 are shown, read-only');
  const around = page.getByLabel('Tasks around step_20_7, while the plan loads');
  const linked = around.getByRole('group', { name: 'Task Step 20.7', exact: true });
  await expect(linked).toBeInViewport();
  await expect(around.getByRole('group', { name: 'Task Step 19.7', exact: true })).toBeInViewport();
  // Far tasks are not read yet.
  await expect(around.getByRole('group', { name: 'Task Step 0.0', exact: true })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  // The operator zooms out a little while the plan loads.
  const fitted = (await linked.boundingBox())!;
  const pane = (await around.boundingBox())!;
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await page.mouse.wheel(0, 200);
  await expect.poll(async () => (await linked.boundingBox())!.width).toBeLessThan(fitted.width * 0.9);
  // Pan-zoom gestures count as ended after a pause.
  await page.waitForTimeout(500);
  const before = (await linked.boundingBox())!;

  release();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue('Step 20.7');
  const editorNode = page.getByLabel('Plan graph').getByRole('group', { name: 'Task Step 20.7', exact: true });
  await expect(editorNode).toBeInViewport();
  // Where it was: the editor opens at the view the operator left, at that zoom, not fitted to
  // the task again. It may sit lower by the live-state bar, which appears above the toolbar
  // once the editor has heard what happened on the plan lately (it was just created).
  const after = (await editorNode.boundingBox())!;
  expect(Math.abs(after.width - before.width)).toBeLessThan(1);
  expect(Math.abs(after.x - before.x)).toBeLessThan(2);
  expect(after.y - before.y).toBeGreaterThan(-2);
  expect(after.y - before.y).toBeLessThan(40);
  await expect(around).toHaveCount(0);
});

// The first picture of such a link is the server's: the task, centred, among its neighbours and
// their dependencies, before any of the page's scripts has loaded.
test('a link to a task of a big plan is drawn by the server, centred on the task, before any script runs', async ({ page, api }) => {
  const grid = gridPlan();
  const { id } = await api.create('Drawn by the server', grid.plan, { view: grid.view });
  await page.route(/\/_next\/static\/chunks\/.*\.js(\?|$)/, (route) => route.abort());
  await page.goto(`/plans/${id}?task=step_20_7`);

  const around = page.getByLabel('Tasks around step_20_7, while the plan loads');
  const linked = around.getByRole('group', { name: 'Task Step 20.7', exact: true });
  await expect(linked).toBeInViewport();
  const task = (await linked.boundingBox())!;
  const pane = (await around.boundingBox())!;
  expect(Math.abs(task.x + task.width / 2 - (pane.x + pane.width / 2))).toBeLessThan(2);
  expect(Math.abs(task.y + task.height / 2 - (pane.y + pane.height / 2))).toBeLessThan(2);
  await expect(around.getByRole('group', { name: 'Dependency Step 19.7 → Step 20.7' })).toBeAttached();
  // No script of the page ran: it never marked its canvas ready.
  expect(await page.evaluate(() => performance.getEntriesByName('plangate:canvas-ready').length)).toBe(0);
});
