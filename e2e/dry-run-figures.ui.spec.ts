import type { Page } from '@playwright/test';
import { axeViolations, expect, test, type PlansApi } from './fixtures';

// The dry run's figures as an approver reads them: a failure never makes the lower bound
// exceed the makespan, Monte Carlo leads with how often the job completes, and a cost
// nobody estimated is "unknown", never $0.

/** a (1 s) → b (2 s) → c (10 s): failing b skips c, which would otherwise dominate the bound. */
const chain = (costs: boolean) => ({
  planned_tasks: [
    { task_id: 'a', description: 'Fetch the records', execution_type: 'agent', estimate_data: { latency_ms: 1000, ...(costs ? { cost_usd: 0.01 } : {}) } },
    { task_id: 'b', description: 'Clean the records', execution_type: 'agent', dependencies: ['a'], estimate_data: { latency_ms: 2000, ...(costs ? { cost_usd: 0.02 } : {}) } },
    { task_id: 'c', description: 'Write the report', execution_type: 'agent', dependencies: ['b'], estimate_data: { latency_ms: 10_000, ...(costs ? { cost_usd: 0.1 } : {}) } },
  ],
});

interface Stored {
  number: number;
  result: {
    makespan_ms: number;
    lower_bound_ms: number;
    total_cost_usd: number | null;
    monte_carlo: null | { runs: number; completed_runs: number; completion_rate: number; failed_runs: number };
  };
}

async function simulate(api: PlansApi, id: string, options: object): Promise<Stored> {
  const response = await api.request.post(`/api/plans/${id}/simulate`, { data: options });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

async function figures(page: Page, id: string) {
  await page.goto(`/plans/${id}/dry-run`);
  const region = page.getByRole('region', { name: 'Dry-run figures' });
  await expect(region).toBeVisible();
  return region;
}

test('with a task forced to fail, the lower bound counts only the tasks that run and stays at or under the makespan', async ({ page, api }) => {
  const { id } = await api.create('Figures: forced failure', chain(true));
  const run = await simulate(api, id, { workers: 1, fail_task_ids: ['b'] });
  expect(run.number).toBe(1);
  expect(run.result.lower_bound_ms).toBeLessThanOrEqual(run.result.makespan_ms);

  const region = await figures(page, id);
  await expect(region).toContainText('Makespan3.0 s');
  await expect(region).toContainText('Lower bound (tasks that run)3.0 s');
  // The whole plan's bound is there too, named for what it is.
  await expect(region).toContainText('Lower bound if nothing fails13.0 s');
  await expect(region).toContainText('Failed / skipped1 / 1');
  await expect(region).toContainText('Total cost$0.0300');
  expect(await axeViolations(page, 'section[aria-label="Dry-run figures"]')).toEqual([]);
});

test('Monte Carlo leads with the completion rate, then completed-run figures and the time to first failure; other settings are not compared', async ({ page, api }) => {
  const { id } = await api.create('Figures: Monte Carlo', chain(true));
  await simulate(api, id, { workers: 1 });
  const run = await simulate(api, id, { workers: 1, failure_probability: 0.2, runs: 100, seed: 7 });
  const mc = run.result.monte_carlo!;
  expect(run.number).toBe(2);
  expect(mc.completed_runs + mc.failed_runs).toBe(100);
  expect(mc.completed_runs).toBeGreaterThan(0);
  expect(mc.failed_runs).toBeGreaterThan(0);

  const region = await figures(page, id);
  await expect(region.getByText(/^The job completes in \d+% of runs/)).toHaveText(`The job completes in ${Math.round(mc.completion_rate * 100)}% of runs (${mc.completed_runs} of 100)`);
  // A completed run is the whole chain, 13 s: failed runs, which stop early, do not pull it down.
  await expect(region).toContainText(`Makespan p50 / p95 (${mc.completed_runs} completed runs)13.0 s / 13.0 s`);
  await expect(region).toContainText('Cost p50 / p95 (completed runs)$0.1300 / $0.1300');
  await expect(region).toContainText(`Time to first failure p50 / p95 (${mc.failed_runs} failed runs)`);
  await expect(region).toContainText('No change shown: settings differ from the previous dry run (#1, revision 1).');
  await expect(region).not.toContainText('since the previous run');

  // The same settings again: now the runs are compared.
  await simulate(api, id, { workers: 1, failure_probability: 0.2, runs: 100, seed: 7 });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Dry-run figures' })).toContainText('Compared with the previous dry run (#2, revision 1), which had the same settings.');
});

test('a plan without cost estimates shows its total cost as unknown, with a finding, and names the tasks that lack one', async ({ page, api }) => {
  const { id } = await api.create('Figures: no costs', chain(false));
  const run = await simulate(api, id, { workers: 2 });
  expect(run.result.total_cost_usd).toBeNull();

  const region = await figures(page, id);
  await expect(region).toContainText('Total costunknown');
  await expect(region).not.toContainText('$0.0000');
  await expect(page.getByText('Total cost unknown: 3 of the 3 tasks have no cost estimate ("a", "b", "c")')).toBeVisible();
  await expect(
    page.getByText('3 tasks without a cost estimate (no cost_usd of their own, no registry default, no model price), so any total cost that includes them is unknown: "a", "b", "c"'),
  ).toBeVisible();
  await expect(page.getByText('Every task has its own estimate.')).toHaveCount(0);
});
