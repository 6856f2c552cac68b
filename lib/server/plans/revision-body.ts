import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { revisionPagePositions, revisionTaskRefs } from './revision-pages';

// How a revision's whole document is read back. Every revision stores its tasks in
// plan_tasks, referenced by hash in plan order through its pages (revision-pages.ts). The
// server reads them, and the positions its pages hold, as text a few pages per query
// (pageTasksText, pagePositionsText; plan-repository.ts findRevision puts the document
// together), so every reader gets one JSON document, the one that was written. A task or page
// row that is missing or edited changes what comes back, and the content hash recomputed from
// it no longer matches: the binding holds.

/**
 * The revision's document as JSON, its tasks and positions in place, in one statement: what
 * the audit verifier (an offline command) reads. The outer row is named in full: drizzle writes
 * a column of a one-table query unqualified, which inside the subquery would be plan_tasks'
 * own plan_id.
 */
export const revisionBody = sql<unknown>`jsonb_set(jsonb_set("plan_revisions"."body", '{plan,planned_tasks}', coalesce((
    select jsonb_agg(stored.body order by ref.ord)
    from ${revisionTaskRefs} as ref
    join plan_tasks stored on stored.plan_id = "plan_revisions"."plan_id" and stored.hash = ref.hash
  ), '[]'::jsonb)), '{view,positions}', coalesce("plan_revisions"."body"->'view'->'positions', '{}'::jsonb) || ${revisionPagePositions})`;

/**
 * The tasks of some of a plan's pages as JSON texts joined by commas, in the order of
 * `pageHashes` (null for none): one bounded part of a revision's task array (see
 * plan-repository.ts findRevisionText). `task` is what is written of each, from the stored
 * body `stored.body`: the body itself unless a projection is given.
 */
export function pageTasksText(planId: string, pageHashes: string[], task: SQL = sql.raw('stored.body')) {
  return sql<string | null>`select string_agg((${task})::text, ',' order by pg.ord, t.ord) as text
    from unnest(array[${sql.join(pageHashes.map((hash) => sql`${hash}`), sql`, `)}]::text[]) with ordinality as pg(hash, ord)
    join plan_pages page on page.plan_id = ${planId} and page.hash = pg.hash
    cross join lateral unnest(page.task_ids, page.task_hashes) with ordinality as t(task_id, hash, ord)
    join plan_tasks stored on stored.plan_id = ${planId} and stored.hash = t.hash`;
}

/**
 * The task positions some of a plan's pages hold, as the members of one JSON object without
 * its braces, joined by commas in page order (null for none): a task is on one page only, so
 * no name repeats. The other bounded part of a revision read as text.
 */
export function pagePositionsText(planId: string, pageHashes: string[]) {
  return sql<string | null>`select string_agg(substr(page.positions::text, 2, length(page.positions::text) - 2), ',' order by pg.ord) as text
    from unnest(array[${sql.join(pageHashes.map((hash) => sql`${hash}`), sql`, `)}]::text[]) with ordinality as pg(hash, ord)
    join plan_pages page on page.plan_id = ${planId} and page.hash = pg.hash
    where page.positions <> '{}'::jsonb`;
}


/** Whether the revision holds a task with this id, without reading its tasks. */
export function revisionHasTask(taskId: string) {
  return sql<boolean>`exists (select 1 from ${revisionTaskRefs} as ref where ref.task_id = ${taskId})`;
}
