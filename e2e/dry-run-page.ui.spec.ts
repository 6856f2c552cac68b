import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures';
import { parseWfFormat } from '../lib/formats/wfformat';
import { taskDataFromWorkflow } from '../lib/formats/wfformat-plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '../scripts/wfcommons-traces';

// The dry-run page as an approver reads it: a timeline with the tasks' names, each task's
// resolved input and mock output a click away, a canvas that leaves the wheel to the page,
// and settings that live in the address.

const DEMO = 'Berlin facilities, shipments, contaminants (seed 001)';

async function runOn(page: Page, workers: string) {
  const settings = page.getByRole('form', { name: 'Dry-run settings' });
  await settings.getByRole('spinbutton', { name: 'Workers' }).fill(workers);
  await settings.getByRole('button', { name: 'Run dry run' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Dry run #\\d+ of revision \\d+ on ${workers} workers`) })).toBeVisible();
}

test('the Gantt names its tasks; a bar selects its task and shows its resolved input, mock output and unresolved references', async ({ page, api }) => {
  const { id } = await api.copyOfDemo(DEMO);
  // The last task reads a field the mock output does not have: an unresolved reference.
  expect((await api.saveTasks(id, (t) => (t.task_id === 'step-2' ? { ...t, arguments: { shipment_ids: '${step[1].nope.id}' } } : t))).status()).toBe(200);
  await page.goto(`/plans/${id}/dry-run`);
  await runOn(page, '1');

  const timeline = page.getByRole('group', { name: /^Timeline: 3 tasks on 1 workers/ });
  await expect(timeline.getByText('Get facilities in Berlin')).toBeVisible();
  await expect(timeline.getByText('Get their shipments')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Timeline legend' })).toContainText('fails (hatched)');
  await expect(timeline.getByRole('button', { name: /^Get their shipments, [\d.]+ s to [\d.]+ s, worker 1, ran/ })).toBeVisible();

  // The editor's inspector is not here: this one is made for the dry run.
  await expect(page.getByText('Select a task to see and edit its fields.')).toHaveCount(0);
  const inspector = page.getByRole('complementary', { name: 'Dry-run inspector' });
  await timeline.getByRole('button', { name: /^Get their shipments,/ }).click();
  await expect(timeline.getByRole('button', { name: /^Get their shipments,/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(inspector.getByRole('heading', { name: 'Get their shipments' })).toBeVisible();
  await expect(inspector.getByRole('region', { name: 'Resolved input' })).toContainText('"facility_id"');
  await expect(inspector.getByRole('region', { name: 'Resolved input' })).toContainText('${step[0].data.*.id}');
  await expect(inspector.getByRole('region', { name: 'Mock output' })).toContainText('"data"');
  await expect(page).toHaveURL(/[?&]task=step-1/);

  // By keyboard: the next bar on the worker, then Enter selects it; its reference did not resolve.
  await timeline.getByRole('button', { name: /^Get their shipments,/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(timeline.getByRole('button', { name: /^Check for contaminants,/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(inspector.getByRole('heading', { name: 'Check for contaminants' })).toBeVisible();
  await expect(inspector.getByRole('region', { name: 'Resolved input' })).toContainText('unresolved ${step[1].nope.id}');
  await expect(inspector.getByText('1 reference did not resolve (marked in red).')).toBeVisible();
  await expect(inspector.getByRole('list', { name: 'Findings of this task' })).toContainText('unresolved_reference');

  // The canvas selects too, and the bar follows.
  const canvas = page.getByRole('region', { name: 'Plan as the dry run sees it' });
  await canvas.getByRole('group', { name: /^Get facilities in Berlin/ }).click();
  await expect(inspector.getByRole('heading', { name: 'Get facilities in Berlin' })).toBeVisible();
  await expect(timeline.getByRole('button', { name: /^Get facilities in Berlin,/ })).toHaveAttribute('aria-pressed', 'true');

  // The same timeline as a sortable table.
  await page.getByRole('group', { name: 'Timeline view' }).getByRole('button', { name: 'Table' }).click();
  const table = page.getByRole('table', { name: 'Tasks in the dry run' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('columnheader', { name: /Start/ })).toHaveAttribute('aria-sort', 'ascending');
  await table.getByRole('button', { name: /^Start/ }).click();
  await expect(table.getByRole('columnheader', { name: /Start/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(table.getByRole('row').nth(1)).toContainText('Check for contaminants');
  await table.getByRole('button', { name: 'Get their shipments' }).click();
  await expect(inspector.getByRole('heading', { name: 'Get their shipments' })).toBeVisible();

  expect(await axeViolations(page)).toEqual([]);
});

test('the page scrolls past the canvas with the wheel; a click into the canvas gives it the wheel', async ({ page, api }) => {
  const { id } = await api.copyOfDemo(DEMO);
  await page.goto(`/plans/${id}/dry-run`);
  await runOn(page, '2');
  const canvas = page.getByRole('region', { name: 'Plan as the dry run sees it' });
  await expect(canvas.locator('.react-flow__node').first()).toBeVisible();
  await canvas.scrollIntoViewIfNeeded();
  const viewport = canvas.locator('.react-flow__viewport');
  // Let the first fit settle.
  await page.waitForTimeout(300);
  const before = await viewport.getAttribute('style');
  const box = (await canvas.boundingBox())!;
  // The app's layout scrolls its <main>, not the window.
  const pageScroll = () => page.locator('main#main').evaluate((main) => main.scrollTop);
  const scrolled = await pageScroll();
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
  await page.mouse.wheel(0, 300);
  await expect.poll(pageScroll).toBeGreaterThan(scrolled);
  expect(await viewport.getAttribute('style')).toBe(before);

  // Clicked, the canvas zooms with the wheel and the page stays put.
  const box2 = (await canvas.boundingBox())!;
  await page.mouse.click(box2.x + 10, box2.y + box2.height - 10);
  await expect(canvas.getByText('Wheel zooms')).toBeVisible();
  const still = await pageScroll();
  await page.mouse.move(box2.x + box2.width / 2, box2.y + box2.height / 2);
  await page.mouse.wheel(0, -300);
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(before);
  expect(await pageScroll()).toBe(still);
});

test('the settings live in the address: a reload keeps them, and a fine failure probability runs', async ({ page, api }) => {
  const { id } = await api.copyOfDemo(DEMO);
  await page.goto(`/plans/${id}/dry-run`);
  const settings = page.getByRole('form', { name: 'Dry-run settings' });
  await settings.getByRole('spinbutton', { name: 'Workers' }).fill('3');
  await settings.getByRole('spinbutton', { name: 'Failure probability per task' }).fill('0.0001');
  await settings.getByRole('spinbutton', { name: 'Monte Carlo runs' }).fill('20');
  await settings.getByRole('spinbutton', { name: 'Seed' }).fill('42');
  const picker = settings.getByRole('combobox', { name: 'Tasks that fail' });
  await picker.fill('shipments');
  await expect(page.getByRole('listbox', { name: 'Tasks that fail' }).getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: /Get their shipments/ }).click();
  await expect(settings.getByRole('button', { name: 'Remove Get their shipments' })).toBeVisible();
  await expect(page).toHaveURL(/workers=3/);
  await expect(page).toHaveURL(/p=0\.0001/);
  await expect(page).toHaveURL(/fail=step-1/);
  // One task with a failure probability of its own.
  await settings.getByRole('combobox', { name: 'Tasks with their own failure probability' }).fill('Berlin');
  await page.getByRole('option', { name: /Get facilities in Berlin/ }).click();
  await settings.getByRole('spinbutton', { name: 'Failure probability of Get facilities in Berlin' }).fill('0.25');
  await expect(page).toHaveURL(/override=0\.25%3Astep-0/);

  await page.reload();
  await expect(settings.getByRole('spinbutton', { name: 'Workers' })).toHaveValue('3');
  await expect(settings.getByRole('spinbutton', { name: 'Failure probability per task' })).toHaveValue('0.0001');
  await expect(settings.getByRole('spinbutton', { name: 'Monte Carlo runs' })).toHaveValue('20');
  await expect(settings.getByRole('spinbutton', { name: 'Seed' })).toHaveValue('42');
  await expect(settings.getByRole('button', { name: 'Remove Get their shipments' })).toBeVisible();
  await expect(settings.getByRole('spinbutton', { name: 'Failure probability of Get facilities in Berlin' })).toHaveValue('0.25');

  await settings.getByRole('button', { name: 'Run dry run' }).click();
  await expect(page.getByRole('heading', { name: /^Dry run #\d+ of revision \d+ on 3 workers/ })).toBeVisible();
  const timeline = page.getByRole('group', { name: /^Timeline:/ });
  await expect(timeline.getByRole('button', { name: /^Get their shipments, .*failed/ })).toBeVisible();
  await expect(timeline.getByRole('button', { name: /^Check for contaminants, skipped at/ })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test('a 2,122-task dry run stays responsive: the Gantt and the table draw a bounded number of rows, and the picker searches', async ({ page, api }) => {
  test.setTimeout(120_000);
  const workflow = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
  const { id } = await api.create('Montage dry run (WfCommons)', taskDataFromWorkflow(workflow));
  expect((await api.request.post(`/api/plans/${id}/simulate`, { data: { workers: 16 } })).status()).toBe(201);
  await page.goto(`/plans/${id}/dry-run`);
  const timeline = page.getByRole('group', { name: /^Timeline: 2122 tasks on 16 workers/ });
  await expect(timeline).toBeVisible({ timeout: 30_000 });
  const bars = await timeline.getByRole('button').count();
  expect(bars).toBeGreaterThan(0);
  expect(bars).toBeLessThanOrEqual(3004);

  // Zoomed in, the bars read their names, and the first one selects by keyboard.
  const zoom = page.getByRole('group', { name: 'Timeline zoom' });
  await zoom.getByRole('button', { name: 'Zoom in' }).click();
  await zoom.getByRole('button', { name: 'Zoom in' }).click();
  await timeline.getByRole('button').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Dry-run inspector' }).getByRole('heading', { level: 3 })).not.toHaveText('Task in this dry run');

  await page.getByRole('group', { name: 'Timeline view' }).getByRole('button', { name: 'Table' }).click();
  const rows = await page.getByRole('table', { name: 'Tasks in the dry run' }).getByRole('row').count();
  expect(rows).toBeGreaterThan(10);
  expect(rows).toBeLessThan(100);

  const picker = page.getByRole('combobox', { name: 'Tasks that fail' });
  await picker.fill(workflow.tasks[1000].task_id);
  await expect(page.getByRole('listbox', { name: 'Tasks that fail' }).getByRole('option').first()).toContainText(workflow.tasks[1000].task_id);
});
