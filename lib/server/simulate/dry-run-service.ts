import 'server-only';
import { and, count, desc, eq, lt, lte, sql } from 'drizzle-orm';
import { DryRunOptions } from '@/lib/simulate/dry-run';
import { stringifyAround } from '@/lib/api/json-splice';
import { joinTaskPages } from '@/lib/simulate/dry-run-pages';
import { sameSettings } from '@/lib/simulate/same-settings';
import type { Principal } from '../auth/principal';
import type { Database } from '../platform/db/client';
import { dryRuns } from '../platform/db/schema';
import { checkPlanId, getRevisionText } from '../plans/plan-service';
import { runComputeJob } from '../platform/compute/compute-pool';
import { getRegistry } from '../registry/registry-service';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { DryRunSummary, StoredDryRun as StoredDryRunSchema, type StoredDryRun } from '@/lib/api/operation-schemas';
import { parseJsonColumn } from '../platform/db/json-column';
import { findLatestDryRun, insertDryRun, readTaskPages, type DryRunHead, type TaskPages } from './dry-run-repository';

const StoredResult = StoredDryRunSchema.shape.result;

// Dry runs of stored revisions. Each is kept with the revision and hash it ran on, so the
// review shows the evidence for exactly what is being approved, and the next run of the
// plan can say what changed (its figures are compared only when both runs had the same
// settings). What one keeps is bounded by dryRun (DRY_RUN_DATA_LIMITS): a few MB for a
// 20,000-task plan, and never a convertor's output over 1 MB. Runs are numbered per plan
// by counting, so the number needs no column of its own.
//
// The tasks stay JSON text from the compute worker to the database and back to the API's
// answer (dry-run-repository.ts, dryRunJson): only the pages, the server actions and the
// tests parse them, a page at a time.

export type { DryRunSummary, StoredDryRun };

const PreviousSummary = StoredDryRunSchema.shape.previous.unwrap().shape.summary;

/** A stored dry run with its tasks as pages of JSON text (and parsed, when they were read to be). */
export interface StoredDryRunPages {
  head: Omit<StoredDryRun, 'result' | 'previous'>;
  /** The result but its tasks; where it has a `tasks` key, that is where the tasks go in the answer. */
  summary: Record<string, unknown>;
  taskPages: string[];
  tasks?: StoredDryRun['result']['tasks'];
  previous: StoredDryRun['previous'];
}

/** Options as stored; a row whose options no longer parse is compared as having other settings. */
function storedOptions(value: unknown): DryRunOptions | null {
  const parsed = DryRunOptions.safeParse(value);
  return parsed.success ? parsed.data : null;
}

async function withPrevious(db: Database, row: DryRunHead, summary: Record<string, unknown>, pages: TaskPages): Promise<StoredDryRunPages> {
  // The previous run's summary only: its tasks are in pages the comparison does not use.
  const [[previous], [{ number }]] = await Promise.all([
    db
      .select({ id: dryRuns.id, revision: dryRuns.revision, createdAt: dryRuns.createdAt, options: dryRuns.options, summary: sql<DryRunSummary>`${dryRuns.result} - 'tasks'` })
      .from(dryRuns)
      .where(and(eq(dryRuns.planId, row.planId), lt(dryRuns.id, row.id)))
      .orderBy(desc(dryRuns.id))
      .limit(1),
    db
      .select({ number: count() })
      .from(dryRuns)
      .where(and(eq(dryRuns.planId, row.planId), lte(dryRuns.id, row.id))),
  ]);
  if (previous) parseJsonColumn(PreviousSummary, previous.summary, { table: 'dry_runs', column: 'result', row: previous.id });
  const mine = storedOptions(row.options);
  const theirs = previous ? storedOptions(previous.options) : null;
  return {
    head: {
      id: row.id,
      number,
      revision: row.revision,
      content_hash: row.contentHash,
      created_by: row.createdBy,
      created_at: row.createdAt.toISOString(),
    },
    summary,
    taskPages: pages.texts,
    tasks: pages.tasks,
    previous: previous
      ? {
          id: previous.id,
          // The run just before this one of the same plan.
          number: number - 1,
          revision: previous.revision,
          created_at: previous.createdAt.toISOString(),
          same_settings: mine !== null && theirs !== null && sameSettings(mine, theirs),
          summary: previous.summary,
        }
      : null,
  };
}

/**
 * Runs a dry run of a revision (the head unless named) and stores it; its tasks stay text.
 * Options parsed by the caller: the endpoint layer or the server action.
 */
export async function storeDryRun(db: Database, id: string, options: DryRunOptions, principal: Principal, revision?: number): Promise<StoredDryRunPages> {
  // The revision is read as text and everything else (parsing 20,000 tasks, the schedule,
  // the data flow, the Monte Carlo runs, writing the tasks as JSON) happens in a compute
  // worker: this thread keeps answering other requests. Convertors still run in the
  // server's sandbox pool.
  const plan = await getRevisionText(db, id, revision);
  const registry = await getRegistry(db);
  const { summary: result, taskPages, taskCount } = await runComputeJob('dryRun', {
    revision: plan,
    registry,
    options,
  });
  await yieldToEventLoop();
  const { tasks: _inPages, ...stored } = result;
  const row = await insertDryRun(
    db,
    { planId: id, revision: plan.revision, contentHash: plan.contentHash, options, result: stored as unknown as Record<string, unknown>, taskCount, createdBy: principal.username },
    taskPages,
  );
  return withPrevious(db, row, result as unknown as Record<string, unknown>, { texts: taskPages });
}

/** The newest dry run of exactly this revision, its tasks as text (parsed too when `parsed`), or null. */
export async function findLatestDryRunPages(db: Database, id: string, revision: number, options = { parsed: false }): Promise<StoredDryRunPages | null> {
  checkPlanId(id);
  const row = await findLatestDryRun(db, id, revision);
  if (!row) return null;
  // Checked against the response's schema (lib/api), then served as stored: the check
  // refuses a row that no longer has a dry run's shape, and nothing the schema leaves open
  // (findings, resolved inputs) is reshaped on the way out.
  parseJsonColumn(DryRunSummary, row.result, { table: 'dry_runs', column: 'result', row: row.id });
  // Tasks left in the result by migration 0018 were not a list: no dry run wrote that.
  if ('tasks' in row.result) parseJsonColumn(StoredResult.shape.tasks, row.result.tasks, { table: 'dry_runs', column: 'result.tasks', row: row.id });
  const pages = await readTaskPages(db, row, options);
  return withPrevious(db, row, row.result, pages);
}

/** The tasks as a list: those read, or the pages parsed one at a time. */
async function tasksOf(run: StoredDryRunPages): Promise<StoredDryRun['result']['tasks']> {
  if (run.tasks) return run.tasks;
  const tasks: StoredDryRun['result']['tasks'] = [];
  for (const page of run.taskPages) {
    await yieldToEventLoop();
    for (const task of JSON.parse(page) as StoredDryRun['result']['tasks']) tasks.push(task);
  }
  return tasks;
}

/** A stored dry run as one object: for the pages, the server actions and tests. */
export async function storedDryRunOf(run: StoredDryRunPages): Promise<StoredDryRun> {
  const tasks = await tasksOf(run);
  return { ...run.head, result: { ...run.summary, tasks } as StoredDryRun['result'], previous: run.previous };
}

/**
 * A stored dry run as the API's JSON text, the same document JSON.stringify would write of
 * storedDryRunOf's object, but the tasks' pages are spliced in as stored: nothing on this
 * thread writes 20,000 tasks as JSON. A random marker stands where they go.
 */
export function dryRunJson(run: StoredDryRunPages): string {
  return stringifyAround((tasks) => ({ ...run.head, result: { ...run.summary, tasks }, previous: run.previous }), joinTaskPages(run.taskPages));
}

export async function runDryRun(db: Database, id: string, options: DryRunOptions, principal: Principal, revision?: number): Promise<StoredDryRun> {
  return storedDryRunOf(await storeDryRun(db, id, options, principal, revision));
}

/** The newest dry run of exactly this revision, or null. */
export async function latestDryRun(db: Database, id: string, revision: number): Promise<StoredDryRun | null> {
  const run = await findLatestDryRunPages(db, id, revision, { parsed: true });
  return run && storedDryRunOf(run);
}
