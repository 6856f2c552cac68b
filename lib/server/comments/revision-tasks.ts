import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { planRevisions } from '../platform/db/schema';
import { revisionTaskRefs } from '../plans/revision-pages';

// Comments are listed on every poll of every open tab, and each list says which threads sit
// on a task the revision no longer holds. A revision never changes, and its task ids follow
// from its content hash, so the ids are read from its pages once per content and kept here.
// The cache is bounded by entries and by ids held, so a few 20,000-task plans cannot crowd
// the process's memory.

const MAX_ENTRIES = 64;
const MAX_IDS = 200_000;

const cache = new Map<string, ReadonlySet<string>>();
let idsHeld = 0;

function remember(hash: string, ids: ReadonlySet<string>): void {
  if (ids.size > MAX_IDS) return;
  cache.set(hash, ids);
  idsHeld += ids.size;
  // A Map iterates in insertion order: the first key is the least recently used.
  for (const [oldest, set] of cache) {
    if (cache.size <= MAX_ENTRIES && idsHeld <= MAX_IDS) break;
    cache.delete(oldest);
    idsHeld -= set.size;
  }
}

function recall(hash: string): ReadonlySet<string> | undefined {
  const ids = cache.get(hash);
  if (ids) {
    cache.delete(hash);
    cache.set(hash, ids);
  }
  return ids;
}

/** The task ids of one revision; empty when the revision does not exist. */
export async function revisionTaskIds(db: Database, planId: string, revision: number): Promise<ReadonlySet<string>> {
  // The primary key finds the row; the body is not read for the hash.
  const [row] = await db
    .select({ hash: planRevisions.contentHash })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, planId), eq(planRevisions.revision, revision)));
  if (!row) return new Set();
  const known = recall(row.hash);
  if (known) return known;
  const result = await db.execute(sql`
    select array(select ref.task_id from ${revisionTaskRefs} as ref order by ref.ord) as task_ids
    from plan_revisions
    where "plan_revisions"."plan_id" = ${planId} and "plan_revisions"."revision" = ${revision}`);
  const [found] = (result as unknown as { rows: Array<{ task_ids: Array<string | null> | null }> }).rows;
  const ids = new Set((found?.task_ids ?? []).flatMap((taskId) => (taskId === null ? [] : [taskId])));
  remember(row.hash, ids);
  return ids;
}
