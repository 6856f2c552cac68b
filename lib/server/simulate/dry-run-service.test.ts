import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { StoredDryRun } from '@/lib/api/operation-schemas';
import { createPlan, getPlan, getRevisionText } from '../plans/plan-service';
import { computePool } from '../platform/compute/compute-pool';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { principal, refusal } from '../platform/test-support';
import { latestDryRun, runDryRun } from './dry-run-service';

// Stored dry runs: numbered per plan, compared with the previous run only when both had
// the same settings, and options that name no task of the plan refused as a bad request.

const editor = principal('eddie', 'editor');
const plan = {
  task_id: 'job',
  planned_tasks: [
    { task_id: 'a', description: 'A', execution_type: 'agent', estimate_data: { latency_ms: 1000 } },
    { task_id: 'b', description: 'B', execution_type: 'agent', dependencies: ['a'], estimate_data: { latency_ms: 2000, cost_usd: 0.5 } },
  ],
};

describe.each(testDatabases())('dry-run service on $name', (database) => {
  const db = useTestDatabase(database);
  const created = () => createPlan(db(), CreatePlanRequest.parse({ title: 'Dry runs', plan }), editor.username);

  it("numbers each plan's dry runs from 1, whatever other plans ran, and keeps the id", async () => {
    const first = await created();
    const other = await created();
    await runDryRun(db(), other.id, { workers: 1 }, editor);
    const one = await runDryRun(db(), first.id, { workers: 1 }, editor);
    await runDryRun(db(), other.id, { workers: 1 }, editor);
    const two = await runDryRun(db(), first.id, { workers: 1 }, editor);
    expect([one.number, two.number]).toEqual([1, 2]);
    expect(two.id).toBeGreaterThan(one.id + 1);
    expect(two.previous).toMatchObject({ id: one.id, number: 1 });
    const latest = (await latestDryRun(db(), first.id, 1))!;
    expect([latest.id, latest.number, latest.previous?.number]).toEqual([two.id, 2, 1]);
    expect(StoredDryRun.safeParse(latest).success).toBe(true);
  });

  it('says whether the previous run had the same settings, as they act', async () => {
    const { id } = await created();
    await runDryRun(db(), id, { workers: 2, failure_probability: 0.001, runs: 20, seed: 3 }, editor);
    const same = await runDryRun(db(), id, { workers: 2, failure_probability: 0.001, runs: 20, seed: 3, failure_probability_overrides: { a: 0.001 } }, editor);
    expect(same.previous?.same_settings).toBe(true);
    const failing = await runDryRun(db(), id, { workers: 2, failure_probability: 0.001, runs: 20, seed: 3, fail_task_ids: ['a'] }, editor);
    expect(failing.previous?.same_settings).toBe(false);
    // A row whose options no longer parse is never claimed to match.
    await db().execute(sql`update dry_runs set options = '{"workers": "two"}'::jsonb where id = ${failing.id}`);
    expect((await runDryRun(db(), id, { workers: 2 }, editor)).previous?.same_settings).toBe(false);
  });

  it('stores unknown cost as null and the lower bound of the run, never above its makespan', async () => {
    const { id } = await created();
    const run = await runDryRun(db(), id, { workers: 1, fail_task_ids: ['b'] }, editor);
    expect(run.result.lower_bound_ms).toBeLessThanOrEqual(run.result.makespan_ms);
    const clean = await runDryRun(db(), id, { workers: 1 }, editor);
    expect(clean.result.total_cost_usd).toBeNull();
    expect(clean.result.findings.map((f) => f.code)).toEqual(['cost_unknown']);
    expect((await latestDryRun(db(), id, 1))!.result.total_cost_usd).toBeNull();
  });

  it('refuses a failure probability or a failure for a task not in the plan with a 400 naming it', async () => {
    const { id } = await created();
    const override = await refusal(runDryRun(db(), id, { workers: 1, failure_probability_overrides: { ghost: 0.1 } }, editor));
    expect([override.status, override.message]).toEqual([400, 'failure_probability_overrides: no task "ghost" in the plan']);
    const fail = await refusal(runDryRun(db(), id, { workers: 1, fail_task_ids: ['ghost'] }, editor));
    expect([fail.status, fail.message]).toEqual([400, 'No task "ghost" in the plan to fail']);
  });

  it("hands a compute worker the revision as text that reads back as the stored document's plan", async () => {
    const { id } = await created();
    const text = await getRevisionText(db(), id);
    const body = JSON.parse(text.bodyText);
    expect(body.plan.planned_tasks).toEqual([]);
    const stored = await getPlan(db(), id);
    expect({ ...body.plan, planned_tasks: JSON.parse(text.tasksText) }).toEqual(stored.plan);
    expect([text.revision, text.contentHash, text.title]).toEqual([1, stored.content_hash, 'Dry runs']);
  });

  it('reads the text of a plan of many pages, in bounded queries, whole and in plan order', async () => {
    // About 25 pages of tasks: several of the bounded queries of findRevisionText.
    const tasks = Array.from({ length: 3_000 }, (_, i) => ({ task_id: `p${(i * 7919) % 3_000}`, execution_type: 'llm' as const, dependencies: i ? [`p${((i - 1) * 7919) % 3_000}`] : [] }));
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Many pages', plan: { planned_tasks: tasks } }), editor.username);
    const text = await getRevisionText(db(), id);
    expect(JSON.parse(text.tasksText)).toEqual((await getPlan(db(), id)).plan.planned_tasks);
  });

  // About order, not time: bounded for a loaded 2-core machine, where 600 runs took over 30 s.
  it('runs a big dry run in a compute worker: a request made meanwhile is answered before the dry run is', { timeout: 120_000 }, async () => {
    const tasks = Array.from({ length: 3_000 }, (_, i) => ({
      task_id: `t${i}`,
      description: `T${i}`,
      execution_type: 'agent' as const,
      dependencies: i ? [`t${Math.floor(i / 2)}`] : [],
      estimate_data: { latency_ms: 100 + (i % 17) * 10 },
    }));
    const big = await createPlan(db(), CreatePlanRequest.parse({ title: 'Big', plan: { planned_tasks: tasks } }), editor.username);
    const small = await created();
    let finished = false;
    // 200 runs × 3,000 tasks: within the Monte Carlo budget, and a second or more of work in the
    // worker, where the read below takes milliseconds.
    const dryRunning = runDryRun(db(), big.id, { workers: 8, runs: 200, failure_probability: 0.001 }, editor).finally(() => (finished = true));
    while (computePool().stats().running === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const meanwhile = await getPlan(db(), small.id);
    expect(meanwhile.plan.planned_tasks.map((t) => t.task_id)).toEqual(['a', 'b']);
    expect(finished).toBe(false);
    expect(computePool().stats().running).toBe(1);
    expect((await dryRunning).result.monte_carlo?.runs).toBe(200);
  });
});
