import 'server-only';
import { sql } from 'drizzle-orm';
import type { PlanDocument } from '@/lib/plan';
import { sha256Of } from '../audit/digests';

// How a revision references its tasks: in pages of about PAGE_SPAN tasks (their ids, hashes
// and positions), each page stored once per plan by its hash, the revision holding only the
// list of page hashes. A page ends after a task whose id hashes to a boundary, so the pages
// depend on the ids around them and not on where they sit: an edit, a drag, an insertion or
// a removal rewrites the page it falls in, and every other page is the base's. A one-task
// save of a 20,000-task plan writes one page of ~128 references, not 20,000.
//
// Pages are storage only. The content hash is still taken over every task hash in plan
// order (lib/plan/hash, version 2), so the executors' recipe does not change.

type Position = PlanDocument['view']['positions'][string];

/** One page as stored: its tasks' ids and hashes in plan order and those tasks' positions. */
export interface StoredPage {
  hash: string;
  taskIds: string[];
  taskHashes: string[];
  positions: Record<string, Position>;
}

/** Tasks per page on average: a boundary falls after one id in PAGE_SPAN. */
const PAGE_SPAN = 128;
/** No boundary before this many tasks, so ids chosen to hit one cannot make a page per task. */
const MIN_PAGE = 16;
/** A page ends here even without a boundary, so ids chosen to avoid one cost only page size. */
const MAX_PAGE = 1_024;

/** Whether a page ends after this id: a 32-bit FNV-1a hash with murmur3's final mix, so every bit counts. */
function endsPage(taskId: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < taskId.length; i++) h = Math.imul(h ^ taskId.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) & (PAGE_SPAN - 1)) === 0;
}

// Positions are read with Object.hasOwn and written with Object.fromEntries: a task may be
// called "toString" or "__proto__", which plain indexing would read from or write to the
// object's prototype.

function pageOf(taskIds: string[], taskHashes: string[], positions: Readonly<Record<string, Position>>): StoredPage {
  const placed: Array<[string, Position]> = [];
  const parts = new Array<string>(taskIds.length);
  for (let i = 0; i < taskIds.length; i++) {
    const position = Object.hasOwn(positions, taskIds[i]!) ? positions[taskIds[i]!] : undefined;
    if (position) placed.push([taskIds[i]!, position]);
    parts[i] = `${JSON.stringify(taskIds[i])}:${taskHashes[i]}:${position ? `${position.x},${position.y}` : ''}`;
  }
  return { hash: sha256Of(parts.join('\n')), taskIds, taskHashes, positions: Object.fromEntries(placed) };
}

/** Whether the base page holds exactly these references and positions, so it can stand as is. */
function samePage(page: StoredPage, taskIds: string[], taskHashes: string[], start: number, positions: Readonly<Record<string, Position>>): boolean {
  if (page.taskIds.length === 0) return false;
  for (let i = 0; i < page.taskIds.length; i++) {
    const id = page.taskIds[i]!;
    if (id !== taskIds[start + i] || page.taskHashes[i] !== taskHashes[start + i]) return false;
    const was = Object.hasOwn(page.positions, id) ? page.positions[id] : undefined;
    const now = Object.hasOwn(positions, id) ? positions[id] : undefined;
    if (was !== now && (!was || !now || was.x !== now.x || was.y !== now.y)) return false;
  }
  return true;
}

/**
 * The revision's pages, in plan order, and the positions that are not a task's (a subgraph
 * box's, or a removed task's), which stay in the revision's body. A page the base holds
 * unchanged is the base's, not hashed again: a save hashes only what changed.
 */
export function pagesOf(
  taskIds: string[],
  taskHashes: string[],
  positions: Readonly<Record<string, Position>>,
  base: readonly StoredPage[] = [],
): { pages: StoredPage[]; otherPositions: Record<string, Position> } {
  const baseByFirst = new Map(base.map((page) => [page.taskIds[0], page]));
  const pages: StoredPage[] = [];
  let start = 0;
  for (let i = 0; i < taskIds.length; i++) {
    const size = i + 1 - start;
    if (i + 1 === taskIds.length || size === MAX_PAGE || (size >= MIN_PAGE && endsPage(taskIds[i]!))) {
      const was = baseByFirst.get(taskIds[start]);
      const same = was !== undefined && was.taskIds.length === size && samePage(was, taskIds, taskHashes, start, positions);
      pages.push(same ? was : pageOf(taskIds.slice(start, i + 1), taskHashes.slice(start, i + 1), positions));
      start = i + 1;
    }
  }
  const tasks = new Set(taskIds);
  const others: Array<[string, Position]> = [];
  for (const key of Object.keys(positions)) if (!tasks.has(key)) others.push([key, positions[key]!]);
  return { pages, otherPositions: Object.fromEntries(others) };
}

/** Whether a page read from the database still holds what its hash was taken over. */
export function pageIntact(page: StoredPage): boolean {
  return pageOf(page.taskIds, page.taskHashes, page.positions).hash === page.hash;
}

/** Pages joined back into one list of references and one map of positions. */
export function joinPages(pages: StoredPage[]): { taskIds: string[]; taskHashes: string[]; positions: Record<string, Position> } {
  const taskIds: string[] = [];
  const taskHashes: string[] = [];
  const positions: Array<[string, Position]> = [];
  for (const page of pages) {
    for (let i = 0; i < page.taskIds.length; i++) {
      taskIds.push(page.taskIds[i]!);
      taskHashes.push(page.taskHashes[i]!);
    }
    positions.push(...Object.entries(page.positions));
  }
  return { taskIds, taskHashes, positions: Object.fromEntries(positions) };
}

// SQL over the row of plan_revisions in the enclosing query, named in full: plan_pages has
// columns of the same names, which an unqualified name inside these subqueries would mean.
// Every revision stores its tasks this way, whichever hash version it carries (migration
// 0017 moved the rows written before pages).

/** The row's task references in plan order (task_id, hash, ord), from its pages. */
export const revisionTaskRefs = sql.raw(`(
    select t.task_id, t.hash, pg.ord * ${MAX_PAGE * 2} + t.ord as ord
    from unnest("plan_revisions"."page_hashes") with ordinality as pg(hash, ord)
    join plan_pages page on page.plan_id = "plan_revisions"."plan_id" and page.hash = pg.hash
    cross join lateral unnest(page.task_ids, page.task_hashes) with ordinality as t(task_id, hash, ord)
  )`);

/** The positions the row's pages hold, as one jsonb object ('{}' for a revision without tasks). */
export const revisionPagePositions = sql.raw(`coalesce((
    select jsonb_object_agg(e.key, e.value)
    from unnest("plan_revisions"."page_hashes") as pg(hash)
    join plan_pages page on page.plan_id = "plan_revisions"."plan_id" and page.hash = pg.hash
    cross join lateral jsonb_each(page.positions) as e
  ), '{}'::jsonb)`);
