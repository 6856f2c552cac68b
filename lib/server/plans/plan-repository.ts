import 'server-only';
import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { planPages, planReviews, planRevisions, planTasks, plans } from '../platform/db/schema';
import { LRUCache } from 'lru-cache';
import { joinPages, pageIntact, type StoredPage } from './revision-pages';
import { pagePositionsText, pageTasksText } from './revision-body';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { appendAudit } from '../audit/audit-log';
import { emitWebhookEvent } from '../webhooks/events';
import { notifyApprovalsVoided } from '../inbox/approval-voided';
import { HASH_VERSION, type PlanDocument } from '@/lib/plan';
import { CURRENT_SCHEMA_VERSION, documentSchema, readRevisionDocument, type DocumentSchemaRegistry } from '@/lib/plan/migrations';
import { AppError } from '../platform/errors';

// Data access only: callers hand in parsed, hashed documents. Every write is one
// transaction, so a plan never exists without its first revision and a head pointer
// never names a revision that was not written.

/** A task the revision holds, as stored once per plan by its hash. */
export interface StoredTask {
  hash: string;
  body: unknown;
  bytes: number;
}

export interface NewRevision {
  /** What the row's body holds: the document without its tasks, and of its positions only those not of a task. */
  skeleton: PlanDocument;
  /** The revision's pages of task references, in plan order (revision-pages.ts). */
  pageHashes: string[];
  taskCount: number;
  /** Tasks and pages the plan may not hold yet; every other hash must already be stored for it. */
  newTasks: StoredTask[];
  newPages: StoredPage[];
  documentBytes: number;
  /** The version-2 content hash (lib/plan/hash). */
  contentHash: string;
  /** What the audit chain records of the stored revision. */
  bodyHash: string;
  author: string;
  message: string;
}

/**
 * Rows per INSERT: 5 parameters a row stays well under PostgreSQL's 65,535, and one
 * statement stays short. On PGlite a statement runs on the server's own thread and its
 * promise settles as a microtask, so a transaction of many statements would never let the
 * event loop in; each batch is followed by a turn of the event loop (the transaction is
 * still one: other queries wait for it, other requests do not).
 */
const ROW_BATCH = 500;

async function storeParts(tx: Database, planId: string, input: Pick<NewRevision, 'newTasks' | 'newPages'>): Promise<void> {
  for (let i = 0; i < input.newTasks.length; i += ROW_BATCH) {
    await yieldToEventLoop();
    await tx
      .insert(planTasks)
      .values(input.newTasks.slice(i, i + ROW_BATCH).map((task) => ({ planId, hash: task.hash, body: task.body, bytes: task.bytes })))
      .onConflictDoNothing();
  }
  for (let i = 0; i < input.newPages.length; i += ROW_BATCH) {
    await yieldToEventLoop();
    await tx
      .insert(planPages)
      .values(input.newPages.slice(i, i + ROW_BATCH).map((page) => ({ planId, hash: page.hash, taskIds: page.taskIds, taskHashes: page.taskHashes, positions: page.positions })))
      .onConflictDoNothing();
  }
  await yieldToEventLoop();
}

function revisionValues(input: NewRevision & { id: string }) {
  return {
    planId: input.id,
    body: input.skeleton,
    schemaVersion: CURRENT_SCHEMA_VERSION,
    contentHash: input.contentHash,
    hashVersion: HASH_VERSION,
    pageHashes: input.pageHashes,
    taskCount: input.taskCount,
    documentBytes: input.documentBytes,
    author: input.author,
    message: input.message,
  };
}

export type PlanRow = typeof plans.$inferSelect;
export type RevisionRow = typeof planRevisions.$inferSelect;

export async function insertPlan(db: Database, input: NewRevision & { id: string; title: string }): Promise<PlanRow> {
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(plans)
      .values({
        id: input.id,
        title: input.title,
        headRevision: 1,
        headContentHash: input.contentHash,
        // clock_timestamp, not now(): plans created in one transaction (the demo seed) still
        // get distinct times, so "newest first" is a real order.
        createdAt: sql`clock_timestamp()`,
        updatedAt: sql`clock_timestamp()`,
      })
      .returning();
    await storeParts(tx, input.id, input);
    await tx.insert(planRevisions).values({ ...revisionValues(input), revision: 1, parentRevision: null });
    await appendAudit(tx, {
      kind: 'created',
      actor: input.author,
      planId: input.id,
      revision: 1,
      contentHash: input.contentHash,
      detail: { body_hash: input.bodyHash },
    });
    return row;
  });
  cachePages(input.id, input.newPages);
  return row;
}

export type SaveResult =
  | { kind: 'saved'; plan: PlanRow; layoutOnly: boolean }
  | { kind: 'conflict'; currentRevision: number }
  | { kind: 'missing' };

/**
 * Writes revision base+1 if and only if base is still the head. The guarded UPDATE is
 * the compare-and-swap: concurrent savers of one base queue on the row lock and all but
 * the first find the guard false, so exactly one wins and the rest see a conflict.
 *
 * `layoutOnly` (the caller's finding that the base has the same content) holds for the
 * head too, since the guard makes the base the head. Such a revision only moved nodes: the
 * plan keeps its status, reviews and approvals (they bind to content, not layout). Any
 * other revision voids them.
 */
export async function saveRevision(
  db: Database,
  input: NewRevision & { id: string; baseRevision: number; title?: string; layoutOnly: boolean },
): Promise<SaveResult> {
  const result = await db.transaction(async (tx): Promise<SaveResult> => {
    const next = input.baseRevision + 1;
    const layoutOnly = input.layoutOnly;
    const [row] = await tx
      .update(plans)
      .set({
        headRevision: next,
        headContentHash: input.contentHash,
        ...(layoutOnly ? {} : { contentRevision: next, status: 'draft', submittedBy: null }),
        updatedAt: sql`clock_timestamp()`,
        ...(input.title ? { title: input.title } : {}),
      })
      .where(and(eq(plans.id, input.id), eq(plans.headRevision, input.baseRevision)))
      .returning();
    if (!row) {
      const [current] = await tx.select({ head: plans.headRevision }).from(plans).where(eq(plans.id, input.id));
      return current ? { kind: 'conflict', currentRevision: current.head } : { kind: 'missing' };
    }
    await storeParts(tx, input.id, input);
    await tx.insert(planRevisions).values({ ...revisionValues(input), revision: next, parentRevision: input.baseRevision, layoutOnly });
    await appendAudit(tx, {
      kind: 'revised',
      actor: input.author,
      planId: input.id,
      revision: next,
      contentHash: input.contentHash,
      detail: { body_hash: input.bodyHash, layout_only: layoutOnly },
    });
    if (layoutOnly) return { kind: 'saved', plan: row, layoutOnly };
    // Runs after the guarded UPDATE took the plan's row lock, so a decision committed
    // just before is seen here and superseded, never left standing on the old head.
    const superseded = await tx
      .update(planReviews)
      .set({ supersededAt: sql`clock_timestamp()`, supersededReason: 'revision' })
      .where(and(eq(planReviews.planId, input.id), isNull(planReviews.supersededAt)))
      .returning();
    for (const review of superseded.filter((r) => r.decision === 'approved')) {
      await appendAudit(tx, {
        kind: 'superseded',
        actor: input.author,
        planId: input.id,
        revision: review.revision,
        contentHash: review.contentHash,
        detail: { review_id: review.id, reviewer: review.reviewer, by_revision: next },
      });
    }
    const voided = superseded.filter((r) => r.decision === 'approved');
    if (voided.length) {
      await emitWebhookEvent(tx, {
        event: 'approval.stale',
        planId: input.id,
        actor: input.author,
        detail: { reason: 'revision', by_revision: next, reviews: voided.map((r) => ({ review_id: r.id, reviewer: r.reviewer, revision: r.revision })) },
      });
      await notifyApprovalsVoided(tx, { planId: input.id, actor: input.author, voided, reason: { kind: 'revision', byRevision: next } });
    }
    return { kind: 'saved', plan: row, layoutOnly };
  });
  if (result.kind === 'saved') cachePages(input.id, input.newPages);
  return result;
}

export async function findPlan(db: Database, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row;
}

/**
 * A revision with `body` its whole document: its tasks and the positions its pages hold put
 * back in place. Read as text a few pages per query and parsed here, between which other
 * requests are answered: one statement aggregating 20,000 tasks into a document held the
 * server's thread (PGlite runs on it) for 300-600 ms, and the review page read it four times.
 */
export async function findRevision(db: Database, id: string, revision: number): Promise<RevisionRow | undefined> {
  const row = await findRevisionTextWithPositions(db, id, revision);
  if (!row) return undefined;
  const { bodyText: _body, tasksText, positionsText: _positions, ...columns } = row;
  const skeleton = await revisionSkeleton(row);
  await yieldToEventLoop();
  const tasks = JSON.parse(tasksText) as unknown[];
  return { ...columns, body: { ...skeleton, plan: { ...skeleton.plan, planned_tasks: tasks } } };
}

/**
 * A revision's body as read as text, with the positions its pages hold put back (a page's
 * position wins over the body's, as revisionBody writes it in SQL); its tasks are not in it.
 */
export async function revisionSkeleton(row: { bodyText: string; positionsText: string }): Promise<{ plan?: object; view?: { positions?: object } } & Record<string, unknown>> {
  const body = JSON.parse(row.bodyText) as { plan?: object; view?: { positions?: object } } & Record<string, unknown>;
  await yieldToEventLoop();
  const positions = JSON.parse(row.positionsText) as object;
  return { ...body, view: { ...body.view, positions: { ...body.view?.positions, ...positions } } };
}

/**
 * A revision's document as JSON text, unparsed, for work done off the event loop (a compute
 * worker parses it, lib/compute/jobs.ts), so this thread only copies strings: the body as
 * stored and its tasks in plan order. The tasks are joined as text rather than aggregated into one jsonb
 * document as findRevision does, which PGlite does several times faster. The positions the
 * pages hold are not read: nothing computed from a revision uses the canvas.
 */
/**
 * Pages per query of findRevisionText: about 500 tasks (pages hold 128 on average). Eight
 * pages a query took 30-65 ms of the thread on PGlite (up to 240 ms on a loaded machine),
 * four take half that, and the total stays the same.
 */
const TEXT_PAGES_PER_QUERY = 4;

/**
 * A revision with its body and its tasks (in plan order) as JSON text, for a compute worker
 * to parse. The tasks are read a few pages per query, not in one: on PGlite a query runs on
 * the server's own thread, and building the text of 20,000 tasks in one statement held it
 * for a few hundred ms; between these bounded queries other requests are answered. No
 * transaction is needed across them: pages and tasks are immutable, named by their hashes.
 */
export async function findRevisionText(db: Database, id: string, revision: number): Promise<RevisionTextRow | undefined> {
  const row = await findRevisionColumns(db, id, revision);
  if (!row) return undefined;
  const tasks = await readPageTexts(db, row.pageHashes, (hashes) => pageTasksText(id, hashes));
  return { ...row, tasksText: `[${tasks}]` };
}

/** A revision's row with its body as text, without its tasks. */
async function findRevisionColumns(db: Database, id: string, revision: number) {
  const { body: _body, ...columns } = getTableColumns(planRevisions);
  const [row] = await db
    .select({ ...columns, bodyText: sql<string>`"plan_revisions"."body"::text` })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), eq(planRevisions.revision, revision)));
  return row;
}

export type RevisionTextRow = Omit<RevisionRow, 'body'> & { bodyText: string; tasksText: string };

type PagePart = 'tasks' | 'positions';

const pagePartText = (id: string, part: PagePart) => (hashes: string[]) => (part === 'tasks' ? pageTasksText(id, hashes) : pagePositionsText(id, hashes));

/** findRevisionText with the positions its pages hold, as the text of one JSON object, each part read by `read`. */
async function revisionTextWithPositions(db: Database, id: string, revision: number, read: (part: PagePart, pageHashes: readonly string[]) => Promise<string>) {
  const row = await findRevisionColumns(db, id, revision);
  if (!row) return undefined;
  const tasks = await read('tasks', row.pageHashes);
  await yieldToEventLoop();
  const positions = await read('positions', row.pageHashes);
  return { ...row, tasksText: `[${tasks}]`, positionsText: `{${positions}}` };
}

/** findRevisionText with the positions its pages hold, as stored. */
export function findRevisionTextWithPositions(db: Database, id: string, revision: number): Promise<(RevisionTextRow & { positionsText: string }) | undefined> {
  return revisionTextWithPositions(db, id, revision, (part, hashes) => readPageTexts(db, hashes, pagePartText(id, part)));
}

/** findRevisionTextWithPositions for a revision sent whole to a reader (the editor draws it), its pages' text from sentPageTexts. */
export function findSentRevisionText(db: Database, id: string, revision: number): Promise<(RevisionTextRow & { positionsText: string }) | undefined> {
  return revisionTextWithPositions(db, id, revision, (part, hashes) => sentPageTexts(db, id, part, hashes));
}

/**
 * The text of pages sent whole to readers lately, by plan, part and list of pages. Pages are
 * immutable and named by their content, so this text never changes: a big plan opened again
 * is answered without reading it again. On PGlite that read runs on the server's own thread:
 * 100-300 ms for 10,000-20,000 tasks, during which the page's scripts waited to be sent.
 * Only readers' answers use it (getPlanJson). What the server acts on or verifies (a run, the
 * approved hand-off, a dry run, a review, an export) reads the pages as stored each time: a
 * page edited in the database after approval must be caught there, not answered from here.
 * Bounded by characters held (a few 20,000-task plans).
 */
const sentTexts = new LRUCache<string, string>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (text) => text.length || 1 });

async function sentPageTexts(db: Database, id: string, part: PagePart, pageHashes: readonly string[]): Promise<string> {
  const key = `${part}\u0000${id}\u0000${pageHashes.join(',')}`;
  const kept = sentTexts.get(key);
  if (kept !== undefined) return kept;
  const text = await readPageTexts(db, pageHashes, pagePartText(id, part));
  sentTexts.set(key, text);
  return text;
}

/** Reads a text part of each few pages, in order, letting other requests in between the queries; the non-empty parts joined by commas. */
export async function readPageTexts(db: Database, pageHashes: readonly string[], part: (hashes: string[]) => SQL<string | null>): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < pageHashes.length; i += TEXT_PAGES_PER_QUERY) {
    if (i > 0) await yieldToEventLoop();
    const result = await db.execute(part(pageHashes.slice(i, i + TEXT_PAGES_PER_QUERY)));
    const text = (result as unknown as { rows: Array<{ text: string | null }> }).rows[0]?.text;
    if (text) parts.push(text);
  }
  return parts.join(',');
}

/** A revision as stored: its body without tasks, which it references by its pages (findReferences). */
export async function findRevisionRefs(db: Database, id: string, revision: number): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), eq(planRevisions.revision, revision)));
  return row;
}

/**
 * Pages read or written lately, by plan and hash. A page is immutable and named by its
 * content, so a cached one is the stored one: consecutive saves of a big plan read only the
 * pages they have not seen, instead of its 20,000 references each time. Bounded by the
 * references held (about 50 bytes each, with positions).
 */
const pageCache = new LRUCache<string, StoredPage>({ maxSize: 400_000, sizeCalculation: (page) => page.taskIds.length || 1 });
const cacheKey = (planId: string, hash: string) => `${planId}\u0000${hash}`;

function cachePages(planId: string, pages: readonly StoredPage[]): void {
  for (const page of pages) pageCache.set(cacheKey(planId, page.hash), page);
}

/**
 * A plan's stored pages by hash, in the order asked for. A page read from the database is
 * checked against its hash before a save builds on it or it is cached; a missing or
 * altered page is an integrity error.
 */
export async function findPages(db: Database, id: string, hashes: string[]): Promise<StoredPage[]> {
  // Hits are kept here, not looked up again: filling the cache with the rest may evict them.
  const found = new Map<string, StoredPage>();
  for (const hash of hashes) {
    const page = pageCache.get(cacheKey(id, hash));
    if (page) found.set(hash, page);
  }
  const missing = [...new Set(hashes.filter((hash) => !found.has(hash)))];
  if (missing.length) {
    const rows = await db
      .select({ hash: planPages.hash, taskIds: planPages.taskIds, taskHashes: planPages.taskHashes, positions: planPages.positions })
      .from(planPages)
      .where(and(eq(planPages.planId, id), inArray(planPages.hash, missing)));
    for (const row of rows) {
      if (!pageIntact(row)) throw pageIntegrityError(id, row.hash, 'does not match its hash');
      found.set(row.hash, row);
    }
    cachePages(id, rows);
  }
  return hashes.map((hash) => {
    const page = found.get(hash);
    if (!page) throw pageIntegrityError(id, hash, 'is missing');
    return page;
  });
}

/** How a revision row references its tasks: their ids and hashes in plan order, the positions its pages hold, and its pages. */
export async function findReferences(db: Database, row: Pick<RevisionRow, 'planId' | 'pageHashes'>) {
  const pages = await findPages(db, row.planId, row.pageHashes);
  const { taskIds, taskHashes, positions } = joinPages(pages);
  return { taskIds, taskHashes, pagePositions: positions, pages };
}

function pageIntegrityError(planId: string, hash: string, problem: string): AppError {
  return new AppError('integrity', 409, `plan_pages row (plan "${planId}", page ${hash}) ${problem}`, undefined, { reason: 'integrity', table: 'plan_pages', plan_id: planId });
}

/** Stored tasks of a plan by hash: their bodies and sizes. */
export async function findTasks(db: Database, id: string, hashes: string[]): Promise<Map<string, StoredTask>> {
  if (hashes.length === 0) return new Map();
  const rows = await db
    .select({ hash: planTasks.hash, body: planTasks.body, bytes: planTasks.bytes })
    .from(planTasks)
    .where(and(eq(planTasks.planId, id), inArray(planTasks.hash, hashes)));
  return new Map(rows.map((row) => [row.hash, row]));
}

/**
 * A revision's document as today's schema reads it: the stored body, migrated from the
 * schema version it was written under, then parsed. The row keeps the body as written,
 * which is what its content hash covers. A body no migration or parse accepts is an
 * integrity error naming the row, never a crash.
 */
export function revisionDocument<T = PlanDocument>(
  row: Pick<RevisionRow, 'planId' | 'revision' | 'body' | 'schemaVersion'>,
  registry: DocumentSchemaRegistry<T> = documentSchema as unknown as DocumentSchemaRegistry<T>,
): T {
  const read = readRevisionDocument(row, registry);
  if (read.success) return read.data;
  throw new AppError('integrity', 409, read.message, undefined, read.extra);
}

/** findRevision with its document read through the migrations (see revisionDocument). */
export async function readRevision<T = PlanDocument>(
  db: Database,
  id: string,
  revision: number,
  registry?: DocumentSchemaRegistry<T>,
): Promise<(RevisionRow & { document: T }) | undefined> {
  const row = await findRevision(db, id, revision);
  return row && { ...row, document: revisionDocument(row, registry) };
}

export type RevisionSummary = Pick<RevisionRow, 'planId' | 'revision' | 'parentRevision' | 'contentHash' | 'author' | 'message' | 'layoutOnly' | 'createdAt'>;

/** What a revision list shows of each revision: everything but the (large) body. */
export const revisionSummaryColumns = {
  planId: planRevisions.planId,
  revision: planRevisions.revision,
  parentRevision: planRevisions.parentRevision,
  contentHash: planRevisions.contentHash,
  author: planRevisions.author,
  message: planRevisions.message,
  layoutOnly: planRevisions.layoutOnly,
  createdAt: planRevisions.createdAt,
};

export async function listRevisions(db: Database, id: string): Promise<RevisionSummary[]> {
  return db
    .select(revisionSummaryColumns)
    .from(planRevisions)
    .where(eq(planRevisions.planId, id))
    .orderBy(asc(planRevisions.revision));
}

export async function countPlans(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(plans);
  return row.n;
}
