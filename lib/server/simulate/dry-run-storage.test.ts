import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { StoredDryRun } from '@/lib/api/operation-schemas';
import { DRY_RUN_PAGE_TASKS } from '@/lib/simulate/dry-run-pages';
import { createPlan } from '../plans/plan-service';
import { dryRunTasks } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { principal, refusal } from '../platform/test-support';
import { dryRunJson, findLatestDryRunPages, latestDryRun, runDryRun, storeDryRun, storedDryRunOf } from './dry-run-service';

// A dry run's tasks are kept in pages of their own (dry_run_tasks): what is read back, as the
// pages and the API see it, is what was run, every task in plan order; the API's text is the
// same document as the object; and pages that went missing or lost their shape are refused,
// not shown as a shorter dry run.

const editor = principal('eddie', 'editor');
const TASKS = 1_234;
/** More tasks than fit a page, with data flowing between them (resolved inputs, mock outputs). */
const plan = {
  planned_tasks: Array.from({ length: TASKS }, (_, i) => ({
    task_id: `t${i}`,
    description: `Task ${i}`,
    execution_type: 'tool' as const,
    tool_id: 'http_get',
    dependencies: i ? [`t${Math.floor((i - 1) / 3)}`] : [],
    arguments: i ? { from: `\${step[${Math.floor((i - 1) / 3)}].data}` } : { url: 'https://example.com/é' },
    estimate_data: { latency_ms: 100 + (i % 13) * 10, cost_usd: 0.001 },
  })),
};
const pageCount = Math.ceil(TASKS / DRY_RUN_PAGE_TASKS);

describe.each(testDatabases())('dry runs stored in pages on $name', (database) => {
  const db = useTestDatabase(database);
  const created = () => createPlan(db(), CreatePlanRequest.parse({ title: 'Pages of tasks', plan }), editor.username);
  const options = { workers: 4, runs: 20, failure_probability: 0.001, seed: 5 };

  it('reads back every task as run, in plan order, from pages of at most DRY_RUN_PAGE_TASKS', async () => {
    const { id } = await created();
    const ran = await runDryRun(db(), id, options, editor);
    expect(ran.result.tasks.map((t) => t.task_id)).toEqual(plan.planned_tasks.map((t) => t.task_id));
    const pages = await db().select({ page: dryRunTasks.page, size: sql<number>`json_array_length(${dryRunTasks.tasks})` }).from(dryRunTasks).where(eq(dryRunTasks.dryRunId, ran.id)).orderBy(dryRunTasks.page);
    expect(pages.map((p) => p.page)).toEqual([...Array(pageCount).keys()]);
    expect(pages.map((p) => Number(p.size))).toEqual([...Array(pageCount).keys()].map((i) => Math.min(DRY_RUN_PAGE_TASKS, TASKS - i * DRY_RUN_PAGE_TASKS)));
    const read = (await latestDryRun(db(), id, 1))!;
    expect(read).toEqual(ran);
    expect(StoredDryRun.safeParse(read).success).toBe(true);
    expect(read.result.tasks[1].resolved_input).toEqual({ from: expect.anything() });
  });

  it('answers the API with the same document as the object, whether just run or read back', async () => {
    const { id } = await created();
    const stored = await storeDryRun(db(), id, options, editor);
    const object = await storedDryRunOf(stored);
    // Just run: the very text JSON.stringify writes of the object, key order included.
    expect(dryRunJson(stored)).toBe(JSON.stringify(object));
    const latest = (await findLatestDryRunPages(db(), id, 1))!;
    expect(JSON.parse(dryRunJson(latest))).toEqual(object);
    // No tasks at all: an empty list, not a missing one.
    const empty = await createPlan(db(), CreatePlanRequest.parse({ title: 'Empty', plan: { planned_tasks: [] } }), editor.username);
    await runDryRun(db(), empty.id, { workers: 1 }, editor);
    expect(JSON.parse(dryRunJson((await findLatestDryRunPages(db(), empty.id, 1))!)).result.tasks).toEqual([]);
  });

  it('refuses a dry run whose page went missing or lost its shape, naming it', async () => {
    const { id } = await created();
    const { id: runId } = await runDryRun(db(), id, { workers: 2 }, editor);
    await db().execute(sql`update dry_run_tasks set tasks = '[{"task_id": 7}]'::json where dry_run_id = ${runId} and page = 1`);
    const reshaped = await refusal(latestDryRun(db(), id, 1));
    expect([reshaped.status, reshaped.code]).toEqual([409, 'integrity']);
    expect(reshaped.message).toContain(`dry_run_tasks row ${runId}/1: the stored tasks does not match its schema`);
    await db().execute(sql`delete from dry_run_tasks where dry_run_id = ${runId} and page = 1`);
    expect((await refusal(latestDryRun(db(), id, 1))).message).toBe(`dry_run_tasks of dry run ${runId}: page 1 is missing`);
    // Numbered without a gap again, but a page short.
    await db().execute(sql`update dry_run_tasks set page = 1 where dry_run_id = ${runId} and page = 2`);
    expect((await refusal(findLatestDryRunPages(db(), id, 1))).message).toBe(`dry_run_tasks of dry run ${runId}: its pages hold ${TASKS - DRY_RUN_PAGE_TASKS} tasks, not the ${TASKS} stored with it`);
  });
});
