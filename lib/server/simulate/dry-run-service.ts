import 'server-only';
import { and, count, desc, eq, lt, lte, sql } from 'drizzle-orm';
import { DryRunOptions, type DryRunResult } from '@/lib/simulate/dry-run';
import { sameSettings } from '@/lib/simulate/same-settings';
import type { Principal } from '../auth/principal';
import type { Database } from '../platform/db/client';
import { dryRuns } from '../platform/db/schema';
import { checkPlanId, getRevisionText } from '../plans/plan-service';
import { runComputeJob } from '../platform/compute/compute-pool';
import { getRegistry } from '../registry/registry-service';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { StoredDryRun as StoredDryRunSchema, type DryRunSummary, type StoredDryRun } from '@/lib/api/operation-schemas';
import { parseJsonColumn } from '../platform/db/json-column';

// Dry runs of stored revisions. Each is kept with the revision and hash it ran on, so the
// review shows the evidence for exactly what is being approved, and the next run of the
// plan can say what changed (its figures are compared only when both runs had the same
// settings). What one keeps is bounded by dryRun (DRY_RUN_DATA_LIMITS): a few MB for a
// 20,000-task plan, and never a convertor's output over 1 MB. Runs are numbered per plan
// by counting, so the number needs no column of its own.

export type { DryRunSummary, StoredDryRun };

type Row = typeof dryRuns.$inferSelect;

const StoredResult = StoredDryRunSchema.shape.result;
const PreviousSummary = StoredDryRunSchema.shape.previous.unwrap().shape.summary;

/** The columns of a row but its result, which the caller already holds (it can be megabytes of JSON to read back). */
type RowWithoutResult = Omit<Row, 'result'>;

/** Options as stored; a row whose options no longer parse is compared as having other settings. */
function storedOptions(value: unknown): DryRunOptions | null {
  const parsed = DryRunOptions.safeParse(value);
  return parsed.success ? parsed.data : null;
}

async function withPrevious(db: Database, row: RowWithoutResult, result: DryRunResult): Promise<StoredDryRun> {
  // The previous run's summary only: its task list can be megabytes the comparison does not use.
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
    id: row.id,
    number,
    revision: row.revision,
    content_hash: row.contentHash,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    result,
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

/** Options parsed by the caller: the endpoint layer or the server action. */
export async function runDryRun(db: Database, id: string, options: DryRunOptions, principal: Principal, revision?: number): Promise<StoredDryRun> {
  // The revision is read as text and everything else (parsing 20,000 tasks, the schedule,
  // the data flow, the Monte Carlo runs) happens in a compute worker: this thread keeps
  // answering other requests. Convertors still run in the server's sandbox pool.
  const plan = await getRevisionText(db, id, revision);
  const registry = await getRegistry(db);
  const result = await runComputeJob('dryRun', {
    revision: plan,
    registry,
    options,
  });
  // Receiving a result of a few MB took a moment: let other requests in before storing it.
  await yieldToEventLoop();
  const [row] = await db
    .insert(dryRuns)
    .values({
      planId: id,
      revision: plan.revision,
      contentHash: plan.contentHash,
      options,
      result: result as unknown as Record<string, unknown>,
      createdBy: principal.username,
    })
    .returning({ id: dryRuns.id, planId: dryRuns.planId, revision: dryRuns.revision, contentHash: dryRuns.contentHash, options: dryRuns.options, createdBy: dryRuns.createdBy, createdAt: dryRuns.createdAt });
  return withPrevious(db, row, result);
}

/** The newest dry run of exactly this revision, or null. */
export async function latestDryRun(db: Database, id: string, revision: number): Promise<StoredDryRun | null> {
  checkPlanId(id);
  const [row] = await db
    .select()
    .from(dryRuns)
    .where(and(eq(dryRuns.planId, id), eq(dryRuns.revision, revision)))
    .orderBy(desc(dryRuns.id))
    .limit(1);
  if (!row) return null;
  // Checked against the response's schema (lib/api), then served as stored: the check
  // refuses a row that no longer has a dry run's shape, and nothing the schema leaves open
  // (findings, resolved inputs) is reshaped on the way out.
  parseJsonColumn(StoredResult, row.result, { table: 'dry_runs', column: 'result', row: row.id });
  return withPrevious(db, row, row.result as unknown as DryRunResult);
}
