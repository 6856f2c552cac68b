import 'server-only';
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { PlanDocument, contentHash } from '@/lib/plan';
import type { Database } from '../platform/db/client';
import { auditEvents, auditHead, planReviews, planRevisions } from '../platform/db/schema';
import {
  AUDIT_LOCK_KEY,
  GENESIS,
  HEAD_ID,
  checkEnds,
  hashEvent,
  readEnds,
  type AuditFailure,
  type AuditProblem,
  type AuditRow,
  type ChainEnds,
} from './audit-chain';
import { auditKey, auditKeyHint, existingAuditKey, signHead, type AuditKey } from './audit-key';
import { bodyDigest, reviewDigest } from './digests';
import { documentHashes, hashVersionOf } from '../plans/document-hashes';
import { revisionBody } from '../plans/revision-body';

// Verification of the audit trail and of the rows it vouches for.
//
// The chain: every event links to the one before it and hashes its own content; the head
// row names the last event and is signed with a key the database does not hold. So an
// edited, deleted or inserted event breaks a link or a hash, and a truncated, extended or
// wholly re-hashed chain no longer ends at the signed head.
//
// The rows: a revision body and a review decision live outside the chain, but the event
// that recorded each one carries its digest (detail.body_hash, detail.review_hash), so a
// body or review edited by hand no longer matches, a row with no event is a forgery, and
// a review a `superseded` event voided must stay superseded.
//
// Events from before those digests existed are checked on what they did record: a body
// against the event's content hash, a review against the event's kind, actor, revision,
// content hash and comment.

export type AuditVerification =
  | { ok: true; events: number }
  | { ok: false; events: number; seq?: number; reason: string; problem: AuditProblem };

export type AdoptResult = { adopted: true; trustedUpTo: number; seq: number } | { adopted: false; reason: string };

const PAGE = 2_000;
const BODY_PAGE = 50;
const DECISIONS = new Set(['approved', 'changes_requested', 'rejected']);

interface BodyFact {
  seq: number;
  contentHash: string | null;
  bodyHash: string | null;
}

interface DecisionFact {
  seq: number;
  kind: string;
  actor: string;
  revision: number | null;
  contentHash: string | null;
  detail: Record<string, unknown>;
  reviewHash: string | null;
}

/** What the verified chain says about one plan. */
interface PlanFacts {
  events: Array<{ seq: number; hash: string }>;
  bodies: Map<number, BodyFact>;
  decisions: Map<number, DecisionFact>;
  /** review id → the seq of the `superseded` event that voided it */
  superseded: Map<number, number>;
}

/** A verified prefix of one chain: everything up to `lastSeq` linked, hashed and (at the time) signed. */
interface ChainFacts {
  lastSeq: number;
  lastHash: string;
  events: number;
  plans: Map<string, PlanFacts>;
}

interface ChainMemo extends ChainFacts {
  keyId: string;
  /** When it was stored (a counter): a memo stored after a verification began may be newer than its snapshot. */
  stored: number;
}

// Per process, per chain (named by its first event's hash, which no legitimate change ever
// alters): the newest prefix verified against a signed head, so later checks only walk the
// events after it. It also remembers how far the chain has been seen to reach: a signed
// head older than that is a rolled-back chain (an old head row put back over a truncation).
const memos = new Map<string, ChainMemo>();
const MAX_MEMOS = 16;
let generation = 0;

function remember(chain: string, keyId: string, facts: ChainFacts): void {
  const current = memos.get(chain);
  if (current && current.keyId === keyId && current.lastSeq >= facts.lastSeq) return;
  memos.delete(chain);
  memos.set(chain, { ...facts, keyId, stored: ++generation });
  while (memos.size > MAX_MEMOS) memos.delete(memos.keys().next().value!);
}

/** A rollback the memo proves: the signed head is older than a head this process already verified. */
export function rollbackOf(ends: ChainEnds, storedBefore = Number.POSITIVE_INFINITY): AuditFailure | null {
  if (!ends.first || !ends.head) return null;
  const memo = memos.get(ends.first.hash);
  if (!memo || memo.stored > storedBefore || memo.lastSeq <= ends.head.seq) return null;
  return {
    problem: 'rolled_back',
    seq: ends.head.seq,
    reason:
      `the signed head names event ${ends.head.seq}, but this process already verified the chain up to event ${memo.lastSeq}: ` +
      'an older head was put back over a truncated chain (restart the server after restoring a backup)',
  };
}

/** Clears what this process remembers of verified chains (tests). */
export function forgetVerifiedChains(): void {
  memos.clear();
}

function emptyPlan(): PlanFacts {
  return { events: [], bodies: new Map(), decisions: new Map(), superseded: new Map() };
}

function clonePlan(facts: PlanFacts): PlanFacts {
  return { events: [...facts.events], bodies: new Map(facts.bodies), decisions: new Map(facts.decisions), superseded: new Map(facts.superseded) };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const reviewIdOf = (detail: Record<string, unknown>): number | null =>
  typeof detail.review_id === 'number' && Number.isSafeInteger(detail.review_id) ? detail.review_id : null;

function record(plans: Map<string, PlanFacts>, row: AuditRow): void {
  const facts = plans.get(row.planId!)!;
  facts.events.push({ seq: row.seq, hash: row.hash });
  const detail = row.detail ?? {};
  if ((row.kind === 'created' || row.kind === 'revised') && row.revision !== null) {
    facts.bodies.set(row.revision, { seq: row.seq, contentHash: row.contentHash, bodyHash: text(detail.body_hash) });
  } else if (DECISIONS.has(row.kind)) {
    const id = reviewIdOf(detail);
    if (id !== null) {
      facts.decisions.set(id, {
        seq: row.seq,
        kind: row.kind,
        actor: row.actor,
        revision: row.revision,
        contentHash: row.contentHash,
        detail,
        reviewHash: text(detail.review_hash),
      });
    }
  } else if (row.kind === 'superseded') {
    const id = reviewIdOf(detail);
    if (id !== null) facts.superseded.set(id, row.seq);
  }
}

/**
 * Walks the events after `base` (from the genesis when null) up to `upto` (to the end when
 * null), checking every link and hash, and returns the facts extended by them. `base` is
 * not modified: the plans the walk touches are copied.
 */
async function walk(db: Database, base: ChainFacts | null, upto: number | null): Promise<ChainFacts | AuditFailure> {
  const plans = new Map(base?.plans ?? []);
  const touched = new Set<string>();
  let previous = base?.lastHash ?? GENESIS;
  let lastSeq = base?.lastSeq ?? 0;
  let events = base?.events ?? 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(upto === null ? gt(auditEvents.seq, lastSeq) : and(gt(auditEvents.seq, lastSeq), lte(auditEvents.seq, upto)))
      .orderBy(asc(auditEvents.seq))
      .limit(PAGE);
    for (const row of rows) {
      if (row.prevHash !== previous) {
        return { problem: 'unlinked', seq: row.seq, reason: `event ${row.seq} does not link to the event before it (a row was removed, inserted or altered)` };
      }
      if (hashEvent(row) !== row.hash) {
        return { problem: 'altered', seq: row.seq, reason: `event ${row.seq} was altered: its content no longer matches its hash` };
      }
      if (row.planId !== null) {
        if (!touched.has(row.planId)) {
          const prior = plans.get(row.planId);
          plans.set(row.planId, prior ? clonePlan(prior) : emptyPlan());
          touched.add(row.planId);
        }
        record(plans, row);
      }
      previous = row.hash;
      lastSeq = row.seq;
      events++;
    }
    if (rows.length < PAGE) break;
  }
  return { lastSeq, lastHash: previous, events, plans };
}

const isFailure = (value: ChainFacts | AuditFailure): value is AuditFailure => 'problem' in value;

// ---- rows outside the chain ---------------------------------------------------------------

interface RevisionFacts {
  planId: string;
  revision: number;
  contentHash: string;
  hashVersion: number;
  body: unknown;
}

const revisionFactColumns = {
  planId: planRevisions.planId,
  revision: planRevisions.revision,
  contentHash: planRevisions.contentHash,
  hashVersion: planRevisions.hashVersion,
  body: revisionBody,
};

function checkRevision(row: RevisionFacts, fact: BodyFact | undefined): AuditFailure | null {
  const name = `revision ${row.revision} of plan "${row.planId}"`;
  if (!fact) {
    return { problem: 'revision_unrecorded', reason: `${name} has no created or revised event: the row was written outside Plangate` };
  }
  const altered: AuditFailure = { problem: 'body_altered', seq: fact.seq, reason: `the body of ${name} is not the one event ${fact.seq} recorded: it was edited` };
  if (row.contentHash !== fact.contentHash) return altered;
  if (fact.bodyHash !== null) {
    // A version-2 body digest is over the task hashes, recomputed here from the task rows the
    // body was read back with: an edited or missing task row is an altered body.
    try {
      const digest = hashVersionOf(row) === 2 ? documentHashes(row.body as PlanDocument).bodyHash : bodyDigest(row.body);
      return digest === fact.bodyHash ? null : altered;
    } catch {
      return altered;
    }
  }
  // An event from before body digests: the body must still have the content it recorded.
  try {
    return contentHash(PlanDocument.parse(row.body)) === fact.contentHash ? null : altered;
  } catch {
    return altered;
  }
}

type ReviewFacts = Pick<
  typeof planReviews.$inferSelect,
  'id' | 'planId' | 'revision' | 'contentHash' | 'decision' | 'reviewer' | 'comment' | 'resourcesHash' | 'supersededAt'
>;

const reviewColumns = {
  id: planReviews.id,
  planId: planReviews.planId,
  revision: planReviews.revision,
  contentHash: planReviews.contentHash,
  decision: planReviews.decision,
  reviewer: planReviews.reviewer,
  comment: planReviews.comment,
  resourcesHash: planReviews.resourcesHash,
  supersededAt: planReviews.supersededAt,
};

function checkReview(row: ReviewFacts, facts: PlanFacts | undefined): AuditFailure | null {
  const name = `review ${row.id} (${row.decision} of revision ${row.revision} of plan "${row.planId}" by ${row.reviewer})`;
  const event = facts?.decisions.get(row.id);
  if (!event) return { problem: 'review_forged', reason: `${name} has no decision event: the row was written outside Plangate` };
  const forged: AuditFailure = { problem: 'review_forged', seq: event.seq, reason: `${name} is not the decision event ${event.seq} recorded: it was edited` };
  if (event.reviewHash !== null) {
    if (reviewDigest(row) !== event.reviewHash) return forged;
  } else {
    // An event from before review digests: compare what it did record.
    const same =
      event.kind === row.decision &&
      event.actor === row.reviewer &&
      event.revision === row.revision &&
      event.contentHash === row.contentHash &&
      (!('comment' in event.detail) || event.detail.comment === row.comment) &&
      row.resourcesHash === null;
    if (!same) return forged;
  }
  const voided = facts!.superseded.get(row.id);
  if (voided !== undefined && row.supersededAt === null) {
    return {
      problem: 'review_resurrected',
      seq: voided,
      reason: `${name} was voided by event ${voided} but is no longer marked superseded: it was revived by hand`,
    };
  }
  return null;
}

/** Every created/revised and decision event of the plans in `scope` must still have its row. */
function checkLeftovers(plans: Map<string, PlanFacts>, scope: Iterable<string>, seenRevisions: Set<string>, seenReviews: Set<number>): AuditFailure | null {
  for (const planId of scope) {
    const facts = plans.get(planId);
    if (!facts) continue;
    for (const [revision, fact] of facts.bodies) {
      if (!seenRevisions.has(`${planId}\u0000${revision}`)) {
        return { problem: 'revision_missing', seq: fact.seq, reason: `revision ${revision} of plan "${planId}", recorded by event ${fact.seq}, is gone: the row was deleted` };
      }
    }
    for (const [id, fact] of facts.decisions) {
      if (!seenReviews.has(id)) {
        return { problem: 'review_missing', seq: fact.seq, reason: `review ${id} of plan "${planId}", recorded by event ${fact.seq}, is gone: the row was deleted` };
      }
    }
  }
  return null;
}

/** Every revision body and review in the database against the chain's facts. */
async function checkAllRows(db: Database, facts: ChainFacts): Promise<AuditFailure | null> {
  const seenRevisions = new Set<string>();
  let after: [string, number] | null = null;
  for (;;) {
    const rows: RevisionFacts[] = await db
      .select(revisionFactColumns)
      .from(planRevisions)
      .where(after ? sql`(${planRevisions.planId}, ${planRevisions.revision}) > (${after[0]}, ${after[1]})` : undefined)
      .orderBy(asc(planRevisions.planId), asc(planRevisions.revision))
      .limit(BODY_PAGE);
    for (const row of rows) {
      const failure = checkRevision(row, facts.plans.get(row.planId)?.bodies.get(row.revision));
      if (failure) return failure;
      seenRevisions.add(`${row.planId}\u0000${row.revision}`);
    }
    if (rows.length < BODY_PAGE) break;
    const last = rows[rows.length - 1];
    after = [last.planId, last.revision];
  }
  const seenReviews = new Set<number>();
  for (const row of await db.select(reviewColumns).from(planReviews).orderBy(asc(planReviews.id))) {
    const failure = checkReview(row, facts.plans.get(row.planId));
    if (failure) return failure;
    seenReviews.add(row.id);
  }
  return checkLeftovers(facts.plans, facts.plans.keys(), seenRevisions, seenReviews);
}

/** One plan's events, one revision body and the plan's reviews against the chain's facts. */
async function checkPlanRows(db: Database, facts: ChainFacts, planId: string, revision: number): Promise<AuditFailure | null> {
  const plan = facts.plans.get(planId);
  // The plan's events as the database holds them now must be the ones verified.
  const stored = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.planId, planId), lte(auditEvents.seq, facts.lastSeq)))
    .orderBy(asc(auditEvents.seq));
  const verified = plan?.events ?? [];
  for (let i = 0; i < Math.max(stored.length, verified.length); i++) {
    const row = stored[i];
    const known = verified[i];
    if (!row || !known || row.seq !== known.seq || row.hash !== known.hash || hashEvent(row) !== row.hash) {
      const seq = row && known ? Math.min(row.seq, known.seq) : (row ?? known).seq;
      return { problem: 'trail_altered', seq, reason: `the events of plan "${planId}" differ from the verified chain at event ${seq}: one was edited, deleted or inserted` };
    }
  }
  const [body] = await db
    .select(revisionFactColumns)
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, planId), eq(planRevisions.revision, revision)));
  const seenRevisions = new Set<string>();
  if (body) {
    const failure = checkRevision(body, plan?.bodies.get(revision));
    if (failure) return failure;
    seenRevisions.add(`${planId}\u0000${revision}`);
  } else if (!plan?.bodies.has(revision)) {
    return { problem: 'revision_missing', reason: `plan "${planId}" has no revision ${revision}` };
  }
  const seenReviews = new Set<number>();
  for (const row of await db.select(reviewColumns).from(planReviews).where(eq(planReviews.planId, planId))) {
    const failure = checkReview(row, plan);
    if (failure) return failure;
    seenReviews.add(row.id);
  }
  // Only this revision's body is read (the others may be large and are not handed off).
  if (plan) {
    const only = { ...plan, bodies: new Map([...plan.bodies].filter(([r]) => r === revision)) };
    return checkLeftovers(new Map([[planId, only]]), [planId], seenRevisions, seenReviews);
  }
  return null;
}

// ---- entry points ---------------------------------------------------------------------------

/** Whether `db` is a caller's transaction rather than the database. */
function inTransaction(db: Database): boolean {
  return (db as unknown) instanceof PgTransaction;
}

/**
 * Whether what `tx` reads is committed data only, so a prefix verified through it may be
 * remembered: our own snapshot, or a caller's transaction that has written nothing (its
 * writes could still be rolled back).
 */
async function readsCommitted(tx: Database, own: boolean): Promise<boolean> {
  if (own) return true;
  const result = await tx.execute(sql`select txid_current_if_assigned() is null as clean`);
  return (result as unknown as { rows: Array<{ clean: boolean }> }).rows[0]?.clean === true;
}

/** Runs `fn` on one consistent snapshot: a read-only repeatable-read transaction, or the caller's transaction. */
function inSnapshot<T>(db: Database, fn: (tx: Database) => Promise<T>): Promise<T> {
  if (inTransaction(db)) return fn(db);
  return db.transaction((tx) => fn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/**
 * Runs a verification; inside a caller's transaction (each statement its own snapshot), a
 * row written and recorded just after the head was read looks unrecorded, so such a
 * failure is checked once more against the newer head.
 */
async function once(own: boolean, attempt: () => Promise<AuditVerification>): Promise<AuditVerification> {
  const result = await attempt();
  if (own || result.ok || (result.problem !== 'review_forged' && result.problem !== 'revision_unrecorded')) return result;
  return attempt();
}

async function failed(db: Database, failure: AuditFailure): Promise<AuditVerification> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
  return { ok: false, events: Number(n), ...(failure.seq !== undefined ? { seq: failure.seq } : {}), reason: failure.reason, problem: failure.problem };
}

function loadKey(): AuditKey | null | AuditFailure {
  try {
    return existingAuditKey();
  } catch (error) {
    return { problem: 'no_key', reason: `the audit key cannot be read: ${(error as Error).message}` };
  }
}

/**
 * Verifies the whole audit trail: every event's hash and link, the signed head against
 * the last event, every revision body and every review against the events that recorded
 * them. Reports the first problem found (`seq` names the event where there is one).
 * Reads one snapshot; never writes, and never makes a key.
 */
export async function verifyAudit(db: Database): Promise<AuditVerification> {
  const since = generation;
  const key = loadKey();
  const own = !inTransaction(db);
  return inSnapshot(db, (tx) => once(own, async () => {
    if (key && 'problem' in key) return failed(tx, key);
    const ends = await readEnds(tx);
    // Up to the end read with the head: later events are someone's append in progress.
    const facts = await walk(tx, null, ends.last?.seq ?? 0);
    if (isFailure(facts)) return failed(tx, facts);
    const endsFailure = checkEnds(ends, key, auditKeyHint) ?? rollbackOf(ends, since);
    if (endsFailure) return failed(tx, endsFailure);
    if (ends.first && key && (await readsCommitted(tx, own))) remember(ends.first.hash, key.id, facts);
    const rowsFailure = await checkAllRows(tx, facts);
    if (rowsFailure) return failed(tx, rowsFailure);
    return { ok: true, events: facts.events };
  }));
}

/**
 * The hand-off's check: may revision `revision` of plan `planId` be trusted? Verifies the
 * signed head against the chain's last event, the chain up to it (walking only the events
 * after the prefix this process has already verified, so after the first call it costs the
 * new events), the plan's events as stored against the verified ones, that revision's body,
 * and every review of the plan (no forged or edited review, no revived approval).
 * Problems elsewhere (other plans' bodies or reviews) are left to `verifyAudit`.
 *
 * Best called with the database: it then reads one snapshot of its own. Inside a caller's
 * transaction it reads through that transaction (and remembers the verified prefix only
 * if the transaction has written nothing).
 */
export async function verifyPlanRevision(db: Database, planId: string, revision: number): Promise<AuditVerification> {
  const since = generation;
  const key = loadKey();
  const own = !inTransaction(db);
  return inSnapshot(db, (tx) => once(own, async () => {
    if (key && 'problem' in key) return failed(tx, key);
    const ends = await readEnds(tx);
    const endsFailure = checkEnds(ends, key, auditKeyHint) ?? rollbackOf(ends, since);
    if (endsFailure) return failed(tx, endsFailure);
    let facts: ChainFacts = { lastSeq: 0, lastHash: GENESIS, events: 0, plans: new Map() };
    if (ends.first && ends.head && key) {
      const head = ends.head;
      let memo: ChainFacts | null = memos.get(ends.first.hash) ?? null;
      // A memo from another key, from a snapshot newer than this one, or of another chain
      // at this position is no base: walk from the start.
      const stale = memo && (memos.get(ends.first.hash)!.keyId !== key.id || memo.lastSeq > head.seq || (memo.lastSeq === head.seq && memo.lastHash !== head.hash));
      if (stale) memo = null;
      if (memo && memo.lastSeq === head.seq) {
        facts = memo;
      } else {
        const walked = await walk(tx, memo, head.seq);
        if (isFailure(walked)) return failed(tx, walked);
        if (walked.lastSeq !== head.seq || walked.lastHash !== head.hash) {
          return failed(tx, { problem: 'rewritten', seq: walked.lastSeq, reason: `the chain does not end at the signed head (event ${head.seq})` });
        }
        facts = walked;
        if (await readsCommitted(tx, own)) remember(ends.first.hash, key.id, facts);
      }
    }
    const rowsFailure = await checkPlanRows(tx, facts, planId, revision);
    if (rowsFailure) return failed(tx, rowsFailure);
    return { ok: true, events: facts.events };
  }));
}

/**
 * Signs a chain that has no signed head: one from before heads were signed. The chain
 * must be whole (every hash and link); it is then trusted as it stands, which is recorded
 * by an `audit_adopted` event (detail.trusted_up_to) that the new signed head names.
 * With `replaceHead`, a head that does not vouch for the chain (signed with a lost key,
 * or disagreeing with it) is replaced too: only after an operator has looked into why.
 */
export async function adoptAuditChain(db: Database, options: { actor: string; replaceHead?: boolean }): Promise<AdoptResult> {
  const key = auditKey();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
    const ends = await readEnds(tx);
    if (!ends.last) return { adopted: false, reason: 'the audit trail is empty; there is nothing to adopt' };
    const problem = checkEnds(ends, key, auditKeyHint);
    if (!problem) return { adopted: false, reason: `the audit trail is already signed up to event ${ends.last.seq}` };
    if (problem.problem !== 'no_head' && !options.replaceHead) {
      return {
        adopted: false,
        reason: `the trail has a signed head that does not vouch for it (${problem.reason}); adopting would hide that. If you have looked into it (e.g. the key was lost), run again with --replace-head`,
      };
    }
    const facts = await walk(tx, null, null);
    if (isFailure(facts)) return { adopted: false, reason: `the chain itself is broken, so it cannot be trusted: ${facts.reason}` };
    console.warn(
      `[plangate] WARNING: trusting the existing audit chain up to event ${ends.last.seq} without a signature (${problem.problem}); ` +
        'whatever was done to it before now can no longer be detected.',
    );
    const row = {
      at: new Date().toISOString(),
      kind: 'audit_adopted',
      actor: options.actor,
      planId: null,
      revision: null,
      contentHash: null,
      detail: {
        trusted_up_to: ends.last.seq,
        trusted_hash: ends.last.hash,
        problem: problem.problem,
        previous_head: ends.head ? { seq: ends.head.seq, hash: ends.head.hash } : null,
      },
      prevHash: ends.last.hash,
    };
    const [inserted] = await tx
      .insert(auditEvents)
      .values({ ...row, hash: hashEvent(row) })
      .returning();
    const head = { seq: inserted.seq, hash: inserted.hash, signature: signHead(key, inserted.seq, inserted.hash) };
    await tx
      .insert(auditHead)
      .values({ id: HEAD_ID, ...head })
      .onConflictDoUpdate({ target: auditHead.id, set: head });
    return { adopted: true, trustedUpTo: ends.last.seq, seq: inserted.seq };
  });
}
