import 'server-only';
import { and, asc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { defaultOrder, type PageQuery, type PlanListQuery } from '@/lib/api/list-schemas';
import type { Database } from '../platform/db/client';
import { TimestampKey, decodeCursor, encodeCursor, pageOf, timestampKey } from '../platform/db/page-cursor';
import { planRevisions, plans } from '../platform/db/schema';
import { revisionSummaryColumns } from './plan-repository';

// The plan list and a plan's revisions, one bounded page at a time: filtering, sorting and
// paging happen in SQL, and no plan body leaves the database (task counts are read from the
// head revisions' rows, for the page's rows only).

const SORT_COLUMNS = {
  updated: { column: plans.updatedAt, key: timestampKey(plans.updatedAt), keyShape: TimestampKey, cast: (v: string) => sql`${v}::timestamptz` },
  created: { column: plans.createdAt, key: timestampKey(plans.createdAt), keyShape: TimestampKey, cast: (v: string) => sql`${v}::timestamptz` },
  title: { column: plans.title, key: sql<string>`${plans.title}`, keyShape: z.string().max(10_000), cast: (v: string) => sql`${v}` },
} as const;

/** `%`, `_` and the escape character itself match literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The creator of a plan: the author of its revision 1. */
const creator = sql<string>`(select ${planRevisions.author} from ${planRevisions} where ${planRevisions.planId} = ${plans.id} and ${planRevisions.revision} = 1)`;

export interface PlanListRow {
  id: string;
  title: string;
  status: string;
  headRevision: number;
  headContentHash: string;
  createdAt: Date;
  updatedAt: Date;
  author: string;
  taskCount: number;
}

export async function listPlanPage(db: Database, query: PlanListQuery): Promise<{ items: PlanListRow[]; next_cursor: string | null }> {
  const order = query.order ?? defaultOrder(query.sort);
  const sort = SORT_COLUMNS[query.sort];
  const list = `plans:${query.sort}:${order}`;
  const where: SQL[] = [];
  if (query.status?.length) where.push(inArray(plans.status, query.status));
  if (query.author) where.push(sql`${creator} = ${query.author}`);
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(or(sql`${plans.title} ilike ${pattern} escape '\\'`, sql`${plans.id} ilike ${pattern} escape '\\'`)!);
  }
  if (query.cursor) {
    const [value, id] = decodeCursor(query.cursor, list, z.tuple([sort.keyShape, z.string().max(200)]));
    // A row comparison, so ties on the sort column are ordered (and resumed) by id.
    where.push(order === 'asc' ? sql`(${sort.column}, ${plans.id}) > (${sort.cast(value)}, ${id})` : sql`(${sort.column}, ${plans.id}) < (${sort.cast(value)}, ${id})`);
  }
  const direction = order === 'asc' ? sql`asc` : sql`desc`;
  const rows = await db
    .select({
      id: plans.id,
      title: plans.title,
      status: plans.status,
      headRevision: plans.headRevision,
      headContentHash: plans.headContentHash,
      createdAt: plans.createdAt,
      updatedAt: plans.updatedAt,
      author: creator,
      sortKey: sort.key,
    })
    .from(plans)
    .where(where.length ? and(...where) : undefined)
    .orderBy(sql`${sort.column} ${direction}`, sql`${plans.id} ${direction}`)
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (last) => encodeCursor(list, [last.sortKey, last.id]));
  const counts = await headTaskCounts(db, page.items.map((row) => row.id));
  return {
    items: page.items.map(({ sortKey: _key, ...row }) => ({ ...row, author: row.author ?? '', taskCount: counts.get(row.id) ?? 0 })),
    next_cursor: page.next_cursor,
  };
}

/** Tasks in the head revision of each plan, counted by the database for these plans only. */
async function headTaskCounts(db: Database, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: planRevisions.planId, count: planRevisions.taskCount })
    .from(planRevisions)
    .innerJoin(plans, and(eq(plans.id, planRevisions.planId), eq(plans.headRevision, planRevisions.revision)))
    .where(inArray(planRevisions.planId, ids));
  return new Map(rows.map((row) => [row.id, Number(row.count)]));
}

/** A plan's revisions, oldest first, after the cursor's revision number. */
export async function listRevisionPage(db: Database, id: string, query: PageQuery) {
  const list = `revisions:${id}`;
  const after = query.cursor ? decodeCursor(query.cursor, list, z.tuple([z.number().int().min(0)]))[0] : 0;
  const rows = await db
    .select(revisionSummaryColumns)
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), gt(planRevisions.revision, after)))
    .orderBy(asc(planRevisions.revision))
    .limit(query.limit + 1);
  return pageOf(rows, query.limit, (last) => encodeCursor(list, [last.revision]));
}
