import canonicalize from 'canonicalize';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { decide, submitForReview } from '../approval/approval-service';
import type { Database } from '../platform/db/client';
import { auditEvents, auditHead } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { createPlan, savePlan } from '../plans/plan-service';
import { adoptAuditChain, appendAudit, prepareAuditTrail, verifyAudit, verifyPlanRevision, type AuditInput, type AuditRow } from './audit-log';
import { forgetAuditSignedMarker } from './audit-key';
import { forgetVerifiedChains } from './audit-verify';
import { FETCH_THEN_SUMMARISE, principal } from '../platform/test-support';

// The attacker of these tests can read and write every table, knows how events are hashed,
// but does not hold the audit key. Each tampering is done with raw SQL, as they would.

const KEY = 'test-audit-key-0123456789abcdefghijklmnopqrstuvwxyz';

const EVENTS: AuditInput[] = [
  { kind: 'user_created', actor: 'admin', detail: { username: 'alice', role: 'editor' } },
  // Keys out of order and nested: jsonb stores them its own way, and the hash must not care.
  { kind: 'submitted', actor: 'alice', planId: 'plan-1', revision: 1, contentHash: 'sha256:' + 'a'.repeat(64), detail: { zeta: 1, alpha: { b: [2, 'x'], a: null } } },
  { kind: 'role_changed', actor: 'admin', detail: { username: 'alice', from: 'editor', to: 'approver' } },
  { kind: 'token_created', actor: 'cli', detail: { username: 'alice', token_id: 't1', label: 'ci' } },
];

const chain = FETCH_THEN_SUMMARISE;

const who = principal;
const editor = who('eddie', 'editor');
const approver = who('alice', 'approver');

/** The event hash as the attacker recomputes it (the algorithm is no secret). */
function rehash(row: Omit<AuditRow, 'seq' | 'hash'>): string {
  const canonical = canonicalize({
    at: row.at,
    kind: row.kind,
    actor: row.actor,
    plan_id: row.planId,
    revision: row.revision,
    content_hash: row.contentHash,
    detail: row.detail,
    prev_hash: row.prevHash,
  })!;
  return 'sha256:' + createHash('sha256').update(canonical).digest('hex');
}

/** Appends the events as the services do: inside transactions, two of them in one. */
async function appendEvents(db: Database): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  await db.transaction(async (tx) => {
    rows.push(await appendAudit(tx, EVENTS[0]));
    rows.push(await appendAudit(tx, EVENTS[1]));
  });
  for (const event of EVENTS.slice(2)) rows.push(await db.transaction((tx) => appendAudit(tx, event)));
  return rows;
}

async function events(db: Database): Promise<AuditRow[]> {
  return db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
}

/** Rewrites the stored chain from `from` on so every hash and link is right again (what a key-less forger can do). */
async function rechain(db: Database, from: number): Promise<void> {
  const rows = await events(db);
  let previous: string | null = null;
  for (const row of rows) {
    if (row.seq < from) {
      previous = row.hash;
      continue;
    }
    const prevHash = previous ?? 'sha256:' + '0'.repeat(64);
    const hash = rehash({ ...row, prevHash });
    await db.execute(sql`update audit_events set prev_hash = ${prevHash}, hash = ${'tmp-' + row.seq} where seq = ${row.seq}`);
    await db.execute(sql`update audit_events set hash = ${hash} where seq = ${row.seq}`);
    previous = hash;
  }
}

/** Each test's key directory, where the first signed append leaves the audit.signed marker. */
let keyDir = '';
const marker = () => path.join(keyDir, 'audit.signed');

/** Makes the trail look like one from before signed heads: no head, and no marker that it was ever signed. */
function neverSigned(): void {
  rmSync(marker(), { force: true });
  forgetAuditSignedMarker();
}

async function failure(db: Database) {
  const result = await verifyAudit(db);
  expect(result.ok, JSON.stringify(result)).toBe(false);
  return result as Extract<typeof result, { ok: false }>;
}

describe.each(testDatabases())('audit log on $name', (database) => {
  const db = useTestDatabase(database);

  beforeAll(() => {
    vi.stubEnv('PLANGATE_AUDIT_KEY', KEY);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    if (keyDir) rmSync(path.dirname(keyDir), { recursive: true, force: true });
  });

  // One chain per database: each test starts from an empty trail and no plans.
  beforeEach(async () => {
    await db().execute(sql`delete from plan_reviews`);
    await db().execute(sql`delete from plan_revisions`);
    await db().execute(sql`delete from plans`);
    await db().execute(sql`delete from audit_events`);
    await db().execute(sql`delete from audit_head`);
    forgetVerifiedChains();
    if (keyDir) rmSync(path.dirname(keyDir), { recursive: true, force: true });
    keyDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'plangate-audit-log-')), 'keys');
    vi.stubEnv('PLANGATE_KEY_DIR', keyDir);
    forgetAuditSignedMarker();
  });

  /**
   * A plan's life through the real services: created, reviewed and approved, then saved
   * again (which supersedes the approval), and approved again.
   */
  async function approvedPlan() {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Audited', plan: chain }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const first = await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: 'Fine' }, approver);
    // Revision 2 changes its first task, so that task's row is its own, not revision 1's too.
    const edited = chain.planned_tasks!.map((task, i) => (i === 0 ? { ...task, description: 'Fetch, edited' } : task));
    const saved = await savePlan(db(), created.id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, status: 'edited', planned_tasks: edited } }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const second = await decide(db(), created.id, 'approved', { revision: 2, content_hash: saved.content_hash, comment: 'Still fine' }, approver);
    return { id: created.id, supersededReview: first.review.id, liveReview: second.review.id };
  }

  it('verifies an empty trail', async () => {
    expect(await verifyAudit(db())).toEqual({ ok: true, events: 0 });
  });

  it('links appended events into a chain with a signed head that verifies', async () => {
    const rows = await appendEvents(db());
    expect(rows.map((r) => r.kind)).toEqual(EVENTS.map((e) => e.kind));
    expect(rows[0].prevHash).toBe('sha256:' + '0'.repeat(64));
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].seq).toBeGreaterThan(rows[i - 1].seq);
      expect(rows[i].prevHash).toBe(rows[i - 1].hash);
    }
    for (const row of rows) expect(row.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const [head] = await db().select().from(auditHead);
    expect(head).toMatchObject({ id: 'audit', seq: rows[3].seq, hash: rows[3].hash });
    expect(head.signature).toMatch(/^hmac-sha256:[0-9a-f]{16}:[0-9a-f]{64}$/);
    expect(await verifyAudit(db())).toEqual({ ok: true, events: EVENTS.length });
  });

  it('verifies the trail the plan and approval services write, with its bodies and reviews', async () => {
    const { id } = await approvedPlan();
    const result = await verifyAudit(db());
    expect(result).toMatchObject({ ok: true });
    expect(await verifyPlanRevision(db(), id, 2)).toEqual(result);
    const kinds = (await events(db())).map((e) => e.kind);
    // Each decision's comment is in the decision's own event; it opens no thread.
    expect(kinds).toEqual(['created', 'submitted', 'approved', 'revised', 'superseded', 'submitted', 'approved']);
  });

  describe('tampering with the chain', () => {
    it('an edited event', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`update audit_events set detail = jsonb_set(detail, '{to}', '"admin"') where seq = ${rows[2].seq}`);
      expect(await failure(db())).toMatchObject({ problem: 'altered', events: EVENTS.length, seq: rows[2].seq, reason: expect.stringMatching(/altered/) });
    });

    it('an edited event, re-hashed by the forger, at the event after it', async () => {
      const rows = await appendEvents(db());
      const hash = rehash({ ...rows[0], actor: 'mallory' });
      await db().execute(sql`update audit_events set actor = 'mallory', hash = ${hash} where seq = ${rows[0].seq}`);
      expect(await failure(db())).toMatchObject({ problem: 'unlinked', seq: rows[1].seq, reason: expect.stringMatching(/does not link/) });
    });

    it('a deleted event in the middle', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_events where seq = ${rows[1].seq}`);
      expect(await failure(db())).toMatchObject({ problem: 'unlinked', events: EVENTS.length - 1, seq: rows[2].seq });
    });

    it('a deleted tail', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_events where seq >= ${rows[2].seq}`);
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'truncated', events: 2, seq: rows[1].seq });
      expect(result.reason).toMatch(/trunca/);
    });

    it('every event deleted', async () => {
      await appendEvents(db());
      await db().execute(sql`delete from audit_events`);
      expect(await failure(db())).toMatchObject({ problem: 'truncated', events: 0 });
    });

    it('a full re-hash of the chain after an edit', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`update audit_events set actor = 'mallory' where seq = ${rows[1].seq}`);
      await rechain(db(), rows[0].seq);
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'rewritten', seq: rows[3].seq });
      expect(result.reason).toMatch(/rewritten/);
    });

    it('a deleted event with the chain re-linked after it', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_events where seq = ${rows[1].seq}`);
      await rechain(db(), rows[2].seq);
      expect(await failure(db())).toMatchObject({ problem: 'rewritten', events: EVENTS.length - 1 });
    });

    it('a forged append', async () => {
      const rows = await appendEvents(db());
      const last = rows[rows.length - 1];
      const forged = { at: new Date().toISOString(), kind: 'role_changed', actor: 'admin', planId: null, revision: null, contentHash: null, detail: { username: 'mallory', from: 'viewer', to: 'admin' }, prevHash: last.hash };
      await db().execute(
        sql`insert into audit_events (at, kind, actor, plan_id, revision, content_hash, detail, prev_hash, hash)
            values (${forged.at}, ${forged.kind}, ${forged.actor}, null, null, null, ${JSON.stringify(forged.detail)}::jsonb, ${forged.prevHash}, ${rehash(forged)})`,
      );
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'forged_append', events: EVENTS.length + 1 });
      expect(result.reason).toMatch(/forged append/);
    });

    it('a forged head signature', async () => {
      const rows = await appendEvents(db());
      // The forger re-hashes an edit and points the head at the new end, signing with a key of their own.
      await db().execute(sql`update audit_events set actor = 'mallory' where seq = ${rows[1].seq}`);
      await rechain(db(), rows[0].seq);
      const [last] = (await events(db())).slice(-1);
      const theirs = createHmac('sha256', 'mallory-key').update(`plangate audit head v1\n${last.seq}\n${last.hash}`).digest('hex');
      const [head] = await db().select().from(auditHead);
      const keyId = head.signature.split(':')[1];
      await db().execute(sql`update audit_head set hash = ${last.hash}, signature = ${`hmac-sha256:${keyId}:${theirs}`}`);
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'bad_signature', seq: last.seq });
      expect(result.reason).toMatch(/valid signature/);
    });

    it('a head signed with another key', async () => {
      await appendEvents(db());
      vi.stubEnv('PLANGATE_AUDIT_KEY', 'another-audit-key-0123456789abcdefghijklmnop');
      try {
        const result = await failure(db());
        expect(result).toMatchObject({ problem: 'bad_signature' });
        expect(result.reason).toMatch(/PLANGATE_AUDIT_KEY/);
        // Nor will this process extend it: it would sign over the server's key.
        await expect(db().transaction((tx) => appendAudit(tx, EVENTS[0]))).rejects.toMatchObject({ code: 'integrity' });
      } finally {
        vi.stubEnv('PLANGATE_AUDIT_KEY', KEY);
      }
      expect(await verifyAudit(db())).toMatchObject({ ok: true });
    });

    it('a missing head: deleted, since the trail has been signed (the audit.signed marker)', async () => {
      expect(existsSync(marker())).toBe(false);
      const rows = await appendEvents(db());
      expect(existsSync(marker())).toBe(true);
      await db().execute(sql`delete from audit_head`);
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'no_head', seq: rows[3].seq });
      expect(result.reason).toMatch(/head row was deleted, which is tampering/);
      expect(result.reason).toContain(marker());
      expect(result.reason).toMatch(/audit adopt --replace-head/);
      // Another process (no in-process flag) finds the marker file just the same.
      forgetAuditSignedMarker();
      expect((await failure(db())).reason).toMatch(/tampering/);
    });

    it('a deleted head is not laundered: appends refuse, and adopting needs --replace-head', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`update audit_events set actor = 'mallory' where seq = ${rows[1].seq}`);
      await rechain(db(), rows[0].seq);
      await db().execute(sql`delete from audit_head`);
      forgetAuditSignedMarker();
      const refused = await db().transaction((tx) => appendAudit(tx, EVENTS[0])).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'integrity', status: 409, extra: { reason: 'no_head' } });
      expect((refused as AppError).message).toMatch(/tampering/);
      expect(await events(db())).toHaveLength(rows.length);
      expect(await db().select().from(auditHead)).toEqual([]);
      // The routine adopt is refused; only an operator who has looked into it replaces the head.
      const adopt = await adoptAuditChain(db(), { actor: 'cli' });
      expect(adopt).toMatchObject({ adopted: false, reason: expect.stringMatching(/tampering.*--replace-head/s) });
      expect((await failure(db())).problem).toBe('no_head');
      vi.mocked(console.warn).mockClear();
      expect(await prepareAuditTrail(db())).toBe('no_head');
      expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(/fails its check.*tampering/s));
      expect(await adoptAuditChain(db(), { actor: 'cli', replaceHead: true })).toMatchObject({ adopted: true, trustedUpTo: rows[3].seq });
      expect(await verifyAudit(db())).toMatchObject({ ok: true });
    });

    it('an old head put back over a truncated chain, once this process has seen it further', async () => {
      await appendEvents(db());
      const [old] = await db().select().from(auditHead);
      const more = await db().transaction((tx) => appendAudit(tx, EVENTS[2]));
      expect(await verifyAudit(db())).toMatchObject({ ok: true });
      await db().execute(sql`delete from audit_events where seq = ${more.seq}`);
      await db().execute(sql`update audit_head set seq = ${old.seq}, hash = ${old.hash}, signature = ${old.signature}`);
      expect(await failure(db())).toMatchObject({ problem: 'rolled_back', seq: old.seq });
      await expect(db().transaction((tx) => appendAudit(tx, EVENTS[0]))).rejects.toMatchObject({ code: 'integrity' });
    });
  });

  describe('refusing to extend a tampered chain', () => {
    it('after a truncation, the next append is refused rather than linked to the new end', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_events where seq = ${rows[3].seq}`);
      const refused = await db()
        .transaction((tx) => appendAudit(tx, EVENTS[0]))
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'integrity', status: 409 });
      expect((await failure(db())).problem).toBe('truncated');
    });

    it('after a forged append, the next append is refused', async () => {
      const rows = await appendEvents(db());
      const forged = { ...rows[3], at: new Date().toISOString(), prevHash: rows[3].hash };
      await db().execute(
        sql`insert into audit_events (at, kind, actor, plan_id, revision, content_hash, detail, prev_hash, hash)
            values (${forged.at}, ${forged.kind}, ${forged.actor}, null, null, null, ${JSON.stringify(forged.detail)}::jsonb, ${forged.prevHash}, ${rehash(forged)})`,
      );
      await expect(db().transaction((tx) => appendAudit(tx, EVENTS[0]))).rejects.toMatchObject({ code: 'integrity' });
    });
  });

  describe('tampering with the rows the chain vouches for', () => {
    it('an edited revision body', async () => {
      const { id } = await approvedPlan();
      await db().execute(
        sql`update plan_tasks set body = jsonb_set(body, '{description}', '"Fetch and upload"')
            where plan_id = ${id} and hash = (select page.task_hashes[1] from plan_revisions join plan_pages page on page.plan_id = plan_revisions.plan_id and page.hash = plan_revisions.page_hashes[1] where plan_revisions.plan_id = ${id} and revision = 2)`,
      );
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'body_altered', reason: expect.stringMatching(/revision 2 of plan/) });
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'body_altered' });
    });

    it('an edited view of a revision body (view data is covered too)', async () => {
      const { id } = await approvedPlan();
      await db().execute(sql`update plan_revisions set body = jsonb_set(body, '{view}', '{"positions": {"fetch": {"x": 1, "y": 2}}}') where plan_id = ${id} and revision = 1`);
      expect(await failure(db())).toMatchObject({ problem: 'body_altered' });
    });

    it("an edited page of a revision's task references: a task moved, or swapped for another", async () => {
      const { id } = await approvedPlan();
      const page = sql`(select page_hashes[1] from plan_revisions where plan_id = ${id} and revision = 2)`;
      await db().execute(sql`update plan_pages set positions = '{"fetch": {"x": 1, "y": 2}}' where plan_id = ${id} and hash = ${page}`);
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'body_altered' });
      await db().execute(sql`update plan_pages set task_hashes = array[task_hashes[2], task_hashes[1]] || task_hashes[3:] where plan_id = ${id} and hash = ${page}`);
      expect(await failure(db())).toMatchObject({ problem: 'body_altered', reason: expect.stringMatching(/revision 2 of plan/) });
    });

    it('a forged revision row', async () => {
      const { id } = await approvedPlan();
      await db().execute(
        sql`insert into plan_revisions (plan_id, revision, parent_revision, body, content_hash, hash_version, page_hashes, task_count, author, message)
            select plan_id, 3, 2, body, content_hash, hash_version, page_hashes, task_count, 'eddie', 'sneaky' from plan_revisions where plan_id = ${id} and revision = 2`,
      );
      expect(await failure(db())).toMatchObject({ problem: 'revision_unrecorded' });
      expect(await verifyPlanRevision(db(), id, 3)).toMatchObject({ ok: false, problem: 'revision_unrecorded' });
    });

    it('a deleted revision row', async () => {
      const { id } = await approvedPlan();
      await db().execute(sql`delete from plan_revisions where plan_id = ${id} and revision = 1`);
      expect(await failure(db())).toMatchObject({ problem: 'revision_missing' });
    });

    it('a forged review row', async () => {
      const { id } = await approvedPlan();
      await db().execute(
        sql`insert into plan_reviews (plan_id, revision, content_hash, decision, reviewer, comment, validation, resources, resources_hash)
            select plan_id, revision, content_hash, 'approved', 'mallory', 'me too', validation, resources, resources_hash from plan_reviews
            where plan_id = ${id} and revision = 2`,
      );
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'review_forged', reason: expect.stringMatching(/by mallory\) has no decision event/) });
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'review_forged' });
    });

    it('an edited review row', async () => {
      const { id, liveReview } = await approvedPlan();
      await db().execute(sql`update plan_reviews set reviewer = 'mallory' where id = ${liveReview}`);
      expect(await failure(db())).toMatchObject({ problem: 'review_forged', reason: expect.stringMatching(/edited/) });
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'review_forged' });
    });

    it('a superseded approval revived', async () => {
      const { id, supersededReview } = await approvedPlan();
      await db().execute(sql`update plan_reviews set superseded_at = null, superseded_reason = null where id = ${supersededReview}`);
      const result = await failure(db());
      expect(result).toMatchObject({ problem: 'review_resurrected', reason: expect.stringMatching(new RegExp(`review ${supersededReview} .*revived`)) });
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'review_resurrected' });
    });

    it('a deleted review row', async () => {
      const { supersededReview } = await approvedPlan();
      await db().execute(sql`delete from plan_reviews where id = ${supersededReview}`);
      expect(await failure(db())).toMatchObject({ problem: 'review_missing' });
    });
  });

  describe('verifyPlanRevision, the hand-off check', () => {
    it('reuses the verified prefix and still catches what changes after it', async () => {
      const { id } = await approvedPlan();
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: true });
      // A new event after the verified prefix is walked; the plan still verifies.
      await db().transaction((tx) => appendAudit(tx, EVENTS[0]));
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: true, events: 8 });
      // An edit inside the verified prefix, hash left alone: the plan's stored events differ.
      const approved = (await events(db())).filter((e) => e.kind === 'approved')[1];
      await db().execute(sql`update audit_events set actor = 'mallory' where seq = ${approved.seq}`);
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'trail_altered', seq: approved.seq });
    });

    it('catches a deleted superseded event inside the verified prefix', async () => {
      const { id } = await approvedPlan();
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: true });
      const superseded = (await events(db())).find((e) => e.kind === 'superseded')!;
      await db().execute(sql`delete from audit_events where seq = ${superseded.seq}`);
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'trail_altered', seq: superseded.seq });
    });

    it('runs inside a caller transaction, and a rolled-back append seen there leaves no false alarm', async () => {
      const { id } = await approvedPlan();
      expect(await db().transaction((tx) => verifyPlanRevision(tx, id, 2))).toMatchObject({ ok: true });
      expect(await db().transaction((tx) => verifyAudit(tx))).toMatchObject({ ok: true });
      const rolledBack = new Error('roll back');
      await expect(
        db().transaction(async (tx) => {
          await appendAudit(tx, EVENTS[0]);
          expect(await verifyPlanRevision(tx, id, 2)).toMatchObject({ ok: true, events: 8 });
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      // Had that prefix been remembered, the real (shorter) chain would now look rolled back.
      await db().transaction((tx) => appendAudit(tx, EVENTS[2]));
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: true, events: 8 });
      expect(await verifyAudit(db())).toMatchObject({ ok: true, events: 8 });
    });

    it('checks the signed head on every call', async () => {
      const { id } = await approvedPlan();
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: true });
      await db().execute(sql`delete from audit_head`);
      expect(await verifyPlanRevision(db(), id, 2)).toMatchObject({ ok: false, problem: 'no_head' });
    });
  });

  describe('a trail from before signed heads', () => {
    it('is extended unsigned, fails verification until adopted, and verifies after adoption', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_head`);
      neverSigned();
      const later = await db().transaction((tx) => appendAudit(tx, EVENTS[2]));
      expect(await db().select().from(auditHead)).toEqual([]);
      expect((await failure(db())).problem).toBe('no_head');

      expect(await adoptAuditChain(db(), { actor: 'cli' })).toMatchObject({ adopted: true, trustedUpTo: later.seq });
      expect(console.warn).toHaveBeenCalledWith(expect.stringContaining(`trusting the existing audit chain up to event ${later.seq}`));
      expect(await verifyAudit(db())).toEqual({ ok: true, events: rows.length + 2 });
      const [adopted] = (await events(db())).slice(-1);
      expect(adopted).toMatchObject({ kind: 'audit_adopted', actor: 'cli', detail: { trusted_up_to: later.seq, problem: 'no_head' } });
      expect(await adoptAuditChain(db(), { actor: 'cli' })).toMatchObject({ adopted: false, reason: expect.stringMatching(/already signed/) });
      // The adopted head is signed: from now on a missing head is tampering.
      expect(existsSync(marker())).toBe(true);
    });

    it('is named at start-up, with how to adopt it', async () => {
      expect(await prepareAuditTrail(db())).toBeNull();
      await appendEvents(db());
      expect(await prepareAuditTrail(db())).toBeNull();
      await db().execute(sql`delete from audit_head`);
      neverSigned();
      vi.mocked(console.warn).mockClear();
      expect(await prepareAuditTrail(db())).toBe('no_head');
      expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('npm run plangate -- audit adopt'));
    });

    it('is not adopted when the chain itself is broken', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_head`);
      neverSigned();
      await db().execute(sql`update audit_events set actor = 'mallory' where seq = ${rows[1].seq}`);
      expect(await adoptAuditChain(db(), { actor: 'cli' })).toMatchObject({ adopted: false, reason: expect.stringMatching(/broken/) });
    });

    it('replaces a head that does not vouch for the chain only when told to', async () => {
      const rows = await appendEvents(db());
      await db().execute(sql`delete from audit_events where seq = ${rows[3].seq}`);
      expect(await adoptAuditChain(db(), { actor: 'cli' })).toMatchObject({ adopted: false, reason: expect.stringMatching(/--replace-head/) });
      expect(await adoptAuditChain(db(), { actor: 'cli', replaceHead: true })).toMatchObject({ adopted: true, trustedUpTo: rows[2].seq });
      expect(await verifyAudit(db())).toMatchObject({ ok: true });
    });
  });
});
