import 'server-only';
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { TaskRun } from '@/lib/api/operation-schemas';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { AppError } from '../platform/errors';
import type { Database } from '../platform/db/client';
import { dryRunTasks, dryRuns } from '../platform/db/schema';
import { parseJsonColumn } from '../platform/db/json-column';

// How a dry run is kept: one dry_runs row (the result but its tasks, which is small) and its
// tasks in pages of JSON text (dry_run_tasks), written and read a page or a few per
// statement with a turn of the event loop between statements. On PGlite every statement
// runs on the server's thread and settles as a microtask, so one statement holding a
// 20,000-task run (4.6 MB of JSON) blocked every other request for hundreds of ms, and a
// chain of statements without a turn would block it as long (see plan-repository.ts).

export type DryRunRow = typeof dryRuns.$inferSelect;
/** A row without its result, which the writer already holds. */
export type DryRunHead = Omit<DryRunRow, 'result'>;

const headColumns = {
  id: dryRuns.id,
  planId: dryRuns.planId,
  revision: dryRuns.revision,
  contentHash: dryRuns.contentHash,
  options: dryRuns.options,
  taskCount: dryRuns.taskCount,
  createdBy: dryRuns.createdBy,
  createdAt: dryRuns.createdAt,
};

/** Pages per read query: about 2,000 tasks, a few hundred kB of text. */
const PAGES_PER_QUERY = 4;

/**
 * Stores a dry run and its task pages in one transaction, so a dry run is never seen
 * without its tasks; a page per statement (at most DRY_RUN_PAGE_CHARS of JSON).
 */
export async function insertDryRun(db: Database, values: Omit<typeof dryRuns.$inferInsert, 'id' | 'createdAt'>, taskPages: readonly string[]): Promise<DryRunHead> {
  return db.transaction(async (tx) => {
    const [head] = await tx.insert(dryRuns).values(values).returning(headColumns);
    for (const [page, text] of taskPages.entries()) {
      await yieldToEventLoop();
      // The text as the worker wrote it: a json column keeps it as written, and drizzle would encode a string again.
      await tx.insert(dryRunTasks).values({ dryRunId: head.id, page, tasks: sql`${text}::json` });
    }
    await yieldToEventLoop();
    return head;
  });
}

/** The newest dry run of exactly this revision of the plan, without its tasks. */
export async function findLatestDryRun(db: Database, planId: string, revision: number): Promise<DryRunRow | undefined> {
  const [row] = await db
    .select()
    .from(dryRuns)
    .where(and(eq(dryRuns.planId, planId), eq(dryRuns.revision, revision)))
    .orderBy(desc(dryRuns.id))
    .limit(1);
  return row;
}

const TaskPage = z.array(TaskRun);

function pagesIntegrityError(head: Pick<DryRunHead, 'id' | 'taskCount'>, problem: string): AppError {
  return new AppError('integrity', 409, `dry_run_tasks of dry run ${head.id}: ${problem}`, undefined, { reason: 'integrity', table: 'dry_run_tasks', row: String(head.id) });
}

export interface TaskPages {
  /** Each page's JSON text as stored, in order. */
  texts: string[];
  /** The tasks, parsed, when asked for. */
  tasks?: z.infer<typeof TaskRun>[];
}

/**
 * A dry run's task pages, read a few per query. Each page is parsed and checked against the
 * API's task schema (a page a step, so no step is long), and the pages must be numbered
 * from 0 without a gap and hold task_count tasks together: evidence an approver reads is
 * refused rather than shown short.
 */
export async function readTaskPages(db: Database, head: Pick<DryRunHead, 'id' | 'taskCount'>, options: { parsed: boolean }): Promise<TaskPages> {
  const texts: string[] = [];
  const tasks: z.infer<typeof TaskRun>[] = [];
  let count = 0;
  for (;;) {
    const rows = await db
      .select({ page: dryRunTasks.page, text: sql<string>`${dryRunTasks.tasks}::text` })
      .from(dryRunTasks)
      .where(and(eq(dryRunTasks.dryRunId, head.id), gte(dryRunTasks.page, texts.length)))
      .orderBy(asc(dryRunTasks.page))
      .limit(PAGES_PER_QUERY);
    for (const row of rows) {
      await yieldToEventLoop();
      if (row.page !== texts.length) throw pagesIntegrityError(head, `page ${texts.length} is missing`);
      let value: unknown;
      try {
        value = JSON.parse(row.text);
      } catch {
        throw pagesIntegrityError(head, `page ${row.page} is not JSON`);
      }
      const page = parseJsonColumn(TaskPage, value, { table: 'dry_run_tasks', column: 'tasks', row: `${head.id}/${row.page}` });
      count += page.length;
      if (options.parsed) for (const task of value as z.infer<typeof TaskRun>[]) tasks.push(task);
      texts.push(row.text);
    }
    if (rows.length < PAGES_PER_QUERY) break;
    await yieldToEventLoop();
  }
  if (count !== head.taskCount) throw pagesIntegrityError(head, `its pages hold ${count} tasks, not the ${head.taskCount} stored with it`);
  return options.parsed ? { texts, tasks } : { texts };
}
