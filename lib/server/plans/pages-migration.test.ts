import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreatePlanRequest, PatchPlanRequest } from '@/lib/api/schemas';
import { PlanDocument, contentHash, type PlannerTask } from '@/lib/plan';
import { decide, getApprovedPlan, submitForReview } from '../approval/approval-service';
import { appendAudit, verifyAudit, verifyPlanRevision } from '../audit/audit-log';
import { bodyDigest, canonicalJson } from '../audit/digests';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { planPages, planRevisions, planTasks, plans } from '../platform/db/schema';
import { migrationsUpTo, testDatabases, type ScratchDatabase } from '../platform/db/test-databases';
import { FETCH_THEN_SUMMARISE, principal } from '../platform/test-support';
import { documentHashes, hashVersionOf, serverContentHash, serverTaskHash } from './document-hashes';
import { createPlan, getPlan, getPlanSkeleton, patchPlan } from './plan-service';
import { findPages, findRevision, findRevisionRefs } from './plan-repository';
import { pagesOf } from './revision-pages';
import { skeletonOf, storedTask } from './revision-parts';

// Migration 0017 moves every revision to one layout, pages. A database is migrated as far as
// the release before it (0016), given revisions as earlier releases wrote them (bodies
// holding their tasks under hash version 1, references in two arrays under version 2, and
// pages), then opened as today's release opens it. Every content hash must still verify
// from what is read back, every body be the one written, and the audit chain still vouch
// for each revision. The migration hashes tasks and pages in SQL, so the tasks here carry
// the JSON the SQL must write exactly as JavaScript does (key order by UTF-16 code units,
// numbers in exponent form, escapes), and their pages must be the ones pagesOf makes.

const KEY = 'test-audit-key-pages-migration-0123456789abcdef';
const approver = principal('alice', 'approver');

/** JSON values of every kind, with keys and strings from the whole of Unicode (PostgreSQL refuses NUL). */
const awkwardValues = fc
  .sample(fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }), { numRuns: 150, seed: 17 })
  .filter((value) => !JSON.stringify(value).includes('\\u0000'));

/** What fast-check may not happen to draw: each case where canonical JSON is easy to get wrong in SQL. */
const edgeCases = {
  numbers: [0, -0, 1e21, 1.5e21, 123e-20, 1e-7, 1.5e-7, 0.000001, -0.0000015, 5e-324, 1.7976931348623157e308, 0.1, 100, -42.125, 2 ** 53 + 2],
  // U+E000 sorts before U+1F600 by code point, after it by UTF-16 code unit.
  keys: { a: 1, '\uE000': 2, '\u{1F600}': 3, é: 4, Z: 5, '': 6, '\u007F': 7 },
  strings: ['"quoted" \\ back', '\u0001\u001F\b\f\n\r\t', 'line\u2028separator', 'é😀\uFFFF', '</script>'],
};

function task(taskId: string, extra: Partial<PlannerTask> = {}): PlannerTask {
  return { ...PlanDocument.parse({ plan: { planned_tasks: [{ task_id: taskId }] } }).plan.planned_tasks[0], ...extra };
}

/** A document as JSON carries it (a -0 is written 0), so it compares equal to what is read back. */
function documentOf(tasks: PlannerTask[], positions: PlanDocument['view']['positions']): PlanDocument {
  const document = PlanDocument.parse({ plan: { task_id: 'job', planned_tasks: tasks }, view: { positions, collapsed: ['sg-1'] }, subgraphs: [{ subgraph_id: 'sg-1', task_ids: [...new Set(tasks.map((t) => t.task_id))] }] });
  return JSON.parse(JSON.stringify(document)) as PlanDocument;
}

/** The revisions written before the migration, with the hashes they were written with. */
interface Written {
  planId: string;
  revision: number;
  document: PlanDocument;
  hashVersion: 1 | 2;
  contentHash: string;
}

/** Text arrays through jsonb: one spelling for both drivers. */
const textArray = (values: string[]) => sql`(select coalesce(array_agg(v order by n), '{}') from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) with ordinality as e(v, n))`;

/** The plan row (revisions need it), then its revisions, then its head. */
async function writePlan(db: Database, id: string, write: () => Promise<Written[]>): Promise<Written[]> {
  await db.insert(plans).values({ id, title: id, headRevision: 0, headContentHash: '' });
  const revisions = await write();
  const head = revisions[revisions.length - 1]!;
  await db.update(plans).set({ headRevision: head.revision, headContentHash: head.contentHash, contentRevision: head.revision }).where(eq(plans.id, id));
  return revisions;
}

/** A revision as releases before 0011 wrote it: the whole document in the body, hashed under version 1. */
async function writeWhole(db: Database, planId: string, revision: number, document: PlanDocument): Promise<Written> {
  const written = { planId, revision, document, hashVersion: 1 as const, contentHash: contentHash(document, 1) };
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into plan_revisions (plan_id, revision, parent_revision, body, content_hash, author, message)
      values (${planId}, ${revision}, ${revision > 1 ? revision - 1 : null}, ${JSON.stringify(document)}::jsonb, ${written.contentHash}, 'tester', 'whole')`);
    await appendAudit(tx, { kind: revision === 1 ? 'created' : 'revised', actor: 'tester', planId, revision, contentHash: written.contentHash, detail: { body_hash: bodyDigest(document) } });
  });
  return written;
}

/** A revision as releases 0011 to 0012 wrote it: tasks in plan_tasks, referenced by two arrays on the row. */
async function writeArrays(db: Database, planId: string, revision: number, document: PlanDocument): Promise<Written> {
  const { contentHash: hash, bodyHash, taskHashes } = documentHashes(document);
  const stored = document.plan.planned_tasks.map(storedTask);
  const bytes = Buffer.byteLength(JSON.stringify(document), 'utf8');
  await db.transaction(async (tx) => {
    for (let i = 0; i < stored.length; i += 1_000) {
      await tx
        .insert(planTasks)
        .values(stored.slice(i, i + 1_000).map((t) => ({ planId, hash: t.hash, body: t.body, bytes: t.bytes })))
        .onConflictDoNothing();
    }
    // The body held every position then; pages did not exist.
    await tx.execute(sql`insert into plan_revisions (plan_id, revision, parent_revision, body, content_hash, hash_version, task_ids, task_hashes, document_bytes, author, message)
      values (${planId}, ${revision}, ${revision > 1 ? revision - 1 : null}, ${JSON.stringify(skeletonOf(document))}::jsonb, ${hash}, 2,
        ${textArray(document.plan.planned_tasks.map((t) => t.task_id))}, ${textArray(taskHashes)}, ${bytes}, 'tester', 'arrays')`);
    await appendAudit(tx, { kind: revision === 1 ? 'created' : 'revised', actor: 'tester', planId, revision, contentHash: hash, detail: { body_hash: bodyHash, layout_only: false } });
  });
  return { planId, revision, document, hashVersion: 2, contentHash: hash };
}

describe.each(testDatabases())('migration 0017, every revision in pages, on $name', (database) => {
  let scratch: ScratchDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  const db = () => handle!.db;
  // Plan ids of their own on each database: read pages are cached by plan id and hash in the process.
  const id = { whole: `${database.name}whole`, arrays: `${database.name}arrays`, approve: `${database.name}approve` };
  const written: Written[] = [];
  let pagesWritten: { id: string; row: unknown };
  let tasksBefore = 0;

  // Whole bodies with every awkward value, a plan of 2,500 tasks in arrays (many pages, ids
  // beyond ASCII, positions that JSON writes in exponent form), and a plan already in pages.
  const awkward = [
    ...awkwardValues.map((value, i) => task(`v${i}`, { parameters: { value }, arguments: { i } })),
    task('edge-numbers', { parameters: { numbers: edgeCases.numbers }, estimate_data: edgeCases.numbers[2]! }),
    task('edge-keys', { parameters: { keys: edgeCases.keys, nested: [edgeCases.keys, [edgeCases.keys]] } }),
    task('edge-strings', { parameters: { strings: edgeCases.strings }, description: edgeCases.strings.join(' ') }),
    task('v0', { description: 'a repeated id is kept where it stands' }),
  ];
  const wholePositions = { ...Object.fromEntries(awkward.map((t, i) => [t.task_id, { x: i * 10.5, y: -i }])), 'sg-1': { x: -5, y: -5 } };
  const manyIds = Array.from({ length: 2_500 }, (_, i) => (i % 97 === 0 ? `é-${i}-\u{1F600}` : i % 89 === 0 ? `\uE000${i}` : `t${i}`));
  const many = manyIds.map((taskId, i) => task(taskId, { description: `Task ${i}`, dependencies: i ? [manyIds[i - 1]!] : [] }));
  const manyPositions = {
    ...Object.fromEntries(manyIds.filter((_, i) => i % 5 !== 0).map((taskId, i) => [taskId, { x: i * 1e-7, y: i % 2 ? 1e21 : -0.5 }])),
    'sg-1': { x: 0, y: 0 },
    'a removed task': { x: 3, y: 4 },
  };

  beforeAll(async () => {
    vi.stubEnv('PLANGATE_AUDIT_KEY', KEY);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    scratch = await database.scratch();
    const release0016 = migrationsUpTo('0016_passkeys');
    const old = await scratch.open(release0016);
    try {
      const whole1 = documentOf(awkward, wholePositions);
      const whole2 = documentOf(
        awkward.map((t, i) => (i === 3 ? { ...t, description: 'edited' } : t)),
        { ...wholePositions, v1: { x: 1, y: 1 } },
      );
      written.push(...(await writePlan(old.db, id.whole, async () => [await writeWhole(old.db, id.whole, 1, whole1), await writeWhole(old.db, id.whole, 2, whole2)])));

      const arrays1 = documentOf(many, manyPositions);
      const arrays2 = documentOf(
        many.map((t, i) => (i === 1_234 ? { ...t, description: 'edited' } : t)),
        manyPositions,
      );
      written.push(...(await writePlan(old.db, id.arrays, async () => [await writeArrays(old.db, id.arrays, 1, arrays1), await writeArrays(old.db, id.arrays, 2, arrays2)])));

      // A short plan under version 1, to be approved after the migration.
      const small = documentOf(PlanDocument.parse({ plan: FETCH_THEN_SUMMARISE }).plan.planned_tasks, { fetch: { x: 1, y: 2 } });
      written.push(...(await writePlan(old.db, id.approve, async () => [await writeWhole(old.db, id.approve, 1, small)])));

      // Written by today's code at 0016: already in pages, so the migration leaves it be.
      const created = await createPlan(old.db, CreatePlanRequest.parse({ title: 'Pages', plan: { planned_tasks: many.slice(0, 300) }, view: { positions: manyPositions } }), 'tester');
      pagesWritten = { id: created.id, row: await old.db.execute(sql`select body, page_hashes, task_count, content_hash from plan_revisions where plan_id = ${created.id}`) };
      tasksBefore = (await old.db.select({ hash: planTasks.hash }).from(planTasks)).length;
    } finally {
      await old.close();
      rmSync(release0016, { recursive: true, force: true });
    }
    handle = await scratch.open();
  }, 300_000);

  afterAll(async () => {
    await handle?.close();
    await scratch?.drop();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('reads every revision back as it was written, its content hash verifying under its own hash version', async () => {
    for (const revision of written) {
      const row = (await findRevision(db(), revision.planId, revision.revision))!;
      expect(row.contentHash).toBe(revision.contentHash);
      expect(row.hashVersion).toBe(revision.hashVersion);
      expect(row.body).toEqual(revision.document);
      expect(serverContentHash(row.body as PlanDocument, hashVersionOf(row))).toBe(revision.contentHash);
      // The body digest the audit event recorded, recomputed from what is read back.
      expect(revision.hashVersion === 1 ? bodyDigest(row.body) : documentHashes(row.body as PlanDocument).bodyHash).toBe(
        revision.hashVersion === 1 ? bodyDigest(revision.document) : documentHashes(revision.document).bodyHash,
      );
      expect((await getPlan(db(), revision.planId, revision.revision)).content_hash).toBe(revision.contentHash);
    }
  });

  it('leaves the audit chain vouching for every revision', async () => {
    expect(await verifyAudit(db())).toMatchObject({ ok: true });
    for (const revision of written) expect(await verifyPlanRevision(db(), revision.planId, revision.revision)).toMatchObject({ ok: true });
  });

  it('stores each task under the hash of its canonical JSON, and makes the pages pagesOf makes', async () => {
    const tasks = await db().select().from(planTasks);
    expect(tasks.length).toBeGreaterThan(tasksBefore);
    for (const stored of tasks) {
      expect(stored.hash, JSON.stringify(stored.body)).toBe(serverTaskHash(stored.body as PlannerTask));
      expect(stored.bytes).toBe(Buffer.byteLength(canonicalJson(stored.body), 'utf8'));
    }
    for (const revision of written) {
      const row = (await findRevisionRefs(db(), revision.planId, revision.revision))!;
      // findPages checks each page read from the database against its hash.
      const pages = await findPages(db(), revision.planId, row.pageHashes);
      const { taskHashes } = documentHashes(revision.document);
      const expected = pagesOf(revision.document.plan.planned_tasks.map((t) => t.task_id), taskHashes, revision.document.view.positions);
      expect(pages).toEqual(expected.pages);
      expect(row.taskCount).toBe(revision.document.plan.planned_tasks.length);
      // The body keeps no task and only the positions that are not a task's.
      expect((row.body as PlanDocument).plan.planned_tasks).toEqual([]);
      expect((row.body as PlanDocument).view.positions).toEqual(expected.otherPositions);
    }
    expect((await getPlanSkeleton(db(), id.arrays)).taskIds).toEqual(manyIds);
  });

  it('leaves a revision already in pages as it was, and drops the older layouts', async () => {
    const after = await db().execute(sql`select body, page_hashes, task_count, content_hash from plan_revisions where plan_id = ${pagesWritten.id}`);
    expect((after as unknown as { rows: unknown[] }).rows).toEqual((pagesWritten.row as { rows: unknown[] }).rows);
    const columns = await db().execute(sql`select column_name from information_schema.columns where table_name = 'plan_revisions' and column_name in ('task_ids', 'task_hashes')`);
    expect((columns as unknown as { rows: unknown[] }).rows).toEqual([]);
  });

  it('continues the migrated plans: a save builds on their pages, and a version-1 revision is approved and handed off', async () => {
    const pagesBefore = (await db().select({ hash: planPages.hash }).from(planPages).where(eq(planPages.planId, id.arrays))).length;
    const head = await getPlan(db(), id.arrays);
    const edited = await patchPlan(db(), id.arrays, PatchPlanRequest.parse({ base_revision: 2, upsert_tasks: [{ ...head.plan.planned_tasks[2_000], description: 'edited again' }] }), 'tester');
    expect(edited.content_hash).toBe(contentHash(await getPlan(db(), id.arrays)));
    // One task changed: its page is new, every other page is the migrated one.
    expect((await db().select({ hash: planPages.hash }).from(planPages).where(eq(planPages.planId, id.arrays))).length).toBe(pagesBefore + 1);

    // Same content, moved: still layout-only under the version-2 hash of a version-1 base.
    const moved = await patchPlan(db(), id.whole, PatchPlanRequest.parse({ base_revision: 2, positions: { v2: { x: 9, y: 9 } } }), 'tester');
    expect(moved.layout_only).toBe(true);
    expect(moved.content_hash).toBe(contentHash(written[1]!.document));

    const small = written[4]!;
    await submitForReview(db(), id.approve, {}, principal('tester', 'editor'));
    await decide(db(), id.approve, 'approved', { revision: 1, content_hash: small.contentHash, comment: '' }, approver);
    const handOff = await getApprovedPlan(db(), id.approve);
    expect(handOff).toMatchObject({ revision: 1, content_hash: small.contentHash, hash_version: 1 });
    expect(handOff.document.plan).toEqual(small.document.plan);
    expect(await verifyAudit(db())).toMatchObject({ ok: true });
    const [row] = await db().select({ pages: planRevisions.pageHashes }).from(planRevisions).where(eq(planRevisions.planId, id.approve));
    expect(row!.pages).toHaveLength(1);
  });
});
