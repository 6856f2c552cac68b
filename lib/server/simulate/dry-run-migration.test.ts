import { rmSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { PlanDocument } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { dryRun, type DryRunResult } from '@/lib/simulate/dry-run';
import { decide, getGate, submitForReview } from '../approval/approval-service';
import type { DatabaseHandle } from '../platform/db/client';
import { auditEvents, dryRunTasks, dryRuns } from '../platform/db/schema';
import { migrationsUpTo, testDatabases, type ScratchDatabase } from '../platform/db/test-databases';
import { principal, refusal } from '../platform/test-support';
import { createPlan } from '../plans/plan-service';
import { dryRunJson, findLatestDryRunPages, latestDryRun, runDryRun } from './dry-run-service';

// Migration 0018 moves the tasks of dry runs stored before it out of dry_runs.result into
// pages (dry_run_tasks). A database is migrated as far as the release before it (0017), given
// dry runs as that release stored them (the tasks inside result), then opened as today's
// release opens it: every dry run reads back as it was stored, and runs after it are numbered
// and compared with it as before.

const editor = principal('eddie', 'editor');
const registry = Registry.parse(DEMO_REGISTRY);
const TASKS = 1_100;
const planInput = {
  planned_tasks: Array.from({ length: TASKS }, (_, i) => ({
    task_id: i % 250 === 0 ? `é-${i}-\u{1F600}` : `t${i}`,
    description: `Task ${i}`,
    execution_type: 'llm' as const,
    dependencies: i ? [i % 250 === 1 ? `é-${i - 1}-\u{1F600}` : `t${i - 1}`].filter((d) => d !== 't0') : [],
    estimate_data: { latency_ms: 10 + (i % 7), cost_usd: 0.25 },
  })),
};

describe.each(testDatabases())('migration 0018, dry-run tasks in pages, on $name', (database) => {
  let scratch: ScratchDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  const db = () => handle!.db;
  const stored: Record<'big' | 'empty' | 'broken', { planId: string; runId: number; result: DryRunResult | Record<string, unknown> }> = {} as never;

  beforeAll(async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    scratch = await database.scratch();
    const release0017 = migrationsUpTo('0017_pages_only');
    const old = await scratch.open(release0017);
    try {
      // As release 0017 stored a dry run: the whole result, its tasks included, in one jsonb value.
      const store = async (planId: string, result: unknown, options: unknown) => {
        const rows = await old.db.execute(sql`insert into dry_runs (plan_id, revision, content_hash, options, result, created_by)
          select ${planId}, 1, head_content_hash, ${JSON.stringify(options)}::jsonb, ${JSON.stringify(result)}::jsonb, 'eddie' from plans where id = ${planId} returning id`);
        return Number((rows as unknown as { rows: Array<{ id: number }> }).rows[0].id);
      };
      const big = await createPlan(old.db, CreatePlanRequest.parse({ title: 'Big', plan: planInput }), editor.username);
      const options = { workers: 3, runs: 10, failure_probability: 0.01, seed: 4 };
      const result = JSON.parse(JSON.stringify(await dryRun(PlanDocument.parse({ plan: planInput }).plan, registry, options))) as DryRunResult;
      stored.big = { planId: big.id, runId: await store(big.id, result, options), result };
      const empty = await createPlan(old.db, CreatePlanRequest.parse({ title: 'Empty', plan: { planned_tasks: [] } }), editor.username);
      const emptyResult = JSON.parse(JSON.stringify(await dryRun({ planned_tasks: [] }, registry, { workers: 1 }))) as DryRunResult;
      stored.empty = { planId: empty.id, runId: await store(empty.id, emptyResult, { workers: 1 }), result: emptyResult };
      // No release wrote tasks that are not a list; such a row is still reported, not emptied.
      const broken = await createPlan(old.db, CreatePlanRequest.parse({ title: 'Broken', plan: { planned_tasks: [] } }), editor.username);
      const brokenResult = { ...emptyResult, tasks: 'none' };
      stored.broken = { planId: broken.id, runId: await store(broken.id, brokenResult, { workers: 1 }), result: brokenResult };
    } finally {
      await old.close();
      rmSync(release0017, { recursive: true, force: true });
    }
    handle = await scratch.open();
  }, 300_000);

  afterAll(async () => {
    await handle?.close();
    await scratch?.drop();
    vi.restoreAllMocks();
  });

  it('reads every dry run back as it was stored, through the services and the API', async () => {
    for (const which of ['big', 'empty'] as const) {
      const { planId, runId, result } = stored[which];
      const read = (await latestDryRun(db(), planId, 1))!;
      expect([read.id, read.number, read.previous]).toEqual([runId, 1, null]);
      expect(read.result).toEqual(result);
      expect(JSON.parse(dryRunJson((await findLatestDryRunPages(db(), planId, 1))!)).result).toEqual(result);
    }
  });

  it('moves the tasks into pages of 500 in plan order and out of result', async () => {
    const { runId, result } = stored.big;
    const pages = await db().select({ page: dryRunTasks.page, tasks: dryRunTasks.tasks }).from(dryRunTasks).where(eq(dryRunTasks.dryRunId, runId)).orderBy(dryRunTasks.page);
    expect(pages.map((p) => p.tasks.length)).toEqual([500, 500, 100]);
    expect(pages.flatMap((p) => p.tasks)).toEqual((result as DryRunResult).tasks);
    const [row] = await db().select({ taskCount: dryRuns.taskCount, hasTasks: sql<boolean>`${dryRuns.result} ? 'tasks'` }).from(dryRuns).where(eq(dryRuns.id, runId));
    expect(row).toEqual({ taskCount: TASKS, hasTasks: false });
  });

  it('is the evidence a decision on its revision names, and later runs are numbered and compared with it', async () => {
    const { planId, runId } = stored.big;
    const { content_hash } = await submitForReview(db(), planId, {}, editor).then(() => getGate(db(), planId));
    await decide(db(), planId, 'changes_requested', { revision: 1, content_hash, comment: 'Seen the dry run' }, principal('alice', 'approver'));
    const [event] = await db().select({ detail: auditEvents.detail }).from(auditEvents).where(and(eq(auditEvents.planId, planId), eq(auditEvents.kind, 'changes_requested')));
    expect(event.detail.dry_run_id).toBe(runId);
    const next = await runDryRun(db(), planId, { workers: 3, runs: 10, failure_probability: 0.01, seed: 4 }, editor);
    expect([next.number, next.previous?.id, next.previous?.same_settings]).toEqual([2, runId, true]);
    expect(next.previous?.summary.makespan_ms).toBe((stored.big.result as DryRunResult).makespan_ms);
    expect(next.result.makespan_ms).toBe((stored.big.result as DryRunResult).makespan_ms);
  });

  it('reports a row whose tasks were not a list instead of showing it without tasks', async () => {
    const { planId, runId } = stored.broken;
    const error = await refusal(latestDryRun(db(), planId, 1));
    expect([error.status, error.code]).toEqual([409, 'integrity']);
    expect(error.message).toContain(`dry_runs row ${runId}: the stored result.tasks does not match its schema`);
  });
});
