import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';

// A Cortex XML plan as an LLM answers it: prose and a fence around the <plan> element.
const cortexAnswer = `Here is the plan you asked for.

\`\`\`xml
<plan>
  <objective>Research AI trends and write a summary report</objective>
  <complexity>medium</complexity>
  <estimated_time>30</estimated_time>
  <step id="1">
    <agent>Researcher</agent>
    <action>research</action>
    <arguments><topic>AI trends</topic></arguments>
    <dependencies></dependencies>
    <description>Research the latest AI trends</description>
  </step>
  <step id="2">
    <agent>Writer</agent>
    <action>write_draft</action>
    <arguments><topic>AI trends</topic><input>result_from_step_1</input></arguments>
    <dependencies>1</dependencies>
    <description>Write initial draft based on research findings</description>
  </step>
  <step id="3">
    <agent>Editor</agent>
    <action>review</action>
    <arguments><input>result_from_step_2</input></arguments>
    <dependencies>1, 2</dependencies>
    <description>Review the draft against the research</description>
  </step>
</plan>
\`\`\`
Let me know if you need changes.`;

async function download(page: Page, linkName: string): Promise<string> {
  await page.getByRole('button', { name: 'Export' }).click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: linkName }).click()]);
  return readFile((await file.path())!, 'utf8');
}

test('import a Cortex XML plan through the page, see it laid out, and export it in two formats', async ({ page }) => {
  await page.goto('/import');
  await page.getByRole('textbox', { name: 'Plan text' }).fill(cortexAnswer);
  await page.getByRole('button', { name: 'Import plan' }).click();

  await expect(page).toHaveURL(/\/plans\/[0-9a-z]+/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Research AI trends and write a summary report');
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeEnabled();
  await expect(page.getByRole('group', { name: 'Task Write initial draft based on research findings' })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Dependency Research the latest AI trends → Write initial draft/ })).toHaveCount(1);

  const taskData = JSON.parse(await download(page, 'Export as TaskData JSON (seed 000)'));
  expect(taskData.planned_tasks).toHaveLength(3);
  const byDescription = Object.fromEntries(taskData.planned_tasks.map((t: { description: string; dependencies: string[] }) => [t.description, t]));
  expect(byDescription['Review the draft against the research'].dependencies).toHaveLength(2);

  const plannerAgent = JSON.parse(await download(page, 'Export as Planner Agent plan (seed 001)'));
  expect(plannerAgent.steps).toHaveLength(3);
  expect(plannerAgent.steps[2].depends_on.sort()).toEqual([0, 1]);
  // Agent steps become tool steps there: the editor says so instead of losing it silently.
  await expect(page.getByRole('status').filter({ hasText: 'Exported as Planner Agent' })).toContainText('It cannot carry: task 1: execution_type "agent"');
});

test('a broken file is refused with the format and the place of the problem, and nothing is created', async ({ page }) => {
  await page.goto('/import');
  await page.getByRole('textbox', { name: 'Title (optional)' }).fill('Broken Cortex import');
  await page.getByRole('combobox', { name: 'Format' }).selectOption('cortex-xml');
  await page.getByRole('textbox', { name: 'Plan text' }).fill('<plan><step id="1"><agent>A</agent><dependencies>7</dependencies></step></plan>');
  await page.getByRole('button', { name: 'Import plan' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Could not import' });
  await expect(alert).toContainText('cortex-xml: line 1: step 1');
  await expect(alert).toContainText('7');
  await expect(page).toHaveURL(/\/import$/);
  const titles = (await (await page.request.get('/api/plans')).json()).plans.map((p: { title: string }) => p.title);
  expect(titles).not.toContain('Broken Cortex import');
});
