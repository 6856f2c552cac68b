import 'server-only';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { auditEvents, auditHead } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import {
  AUDIT_LOCK_KEY,
  GENESIS,
  HEAD_ID,
  checkEnds,
  eventContent,
  hashEvent,
  readEnds,
  type AuditFailure,
  type AuditProblem,
  type AuditRow,
  type ChainEnds,
} from './audit-chain';
import { AUDIT_SIGNED_MARKER, auditKey, auditKeyHint, auditSignedBefore, auditSignedMarkerPath, markAuditSigned, signHead } from './audit-key';
import {
  adoptAuditChain as adoptChain,
  rollbackOf,
  verifyAudit as verifyChain,
  verifyPlanRevision as verifyRevision,
  type AdoptResult,
  type AuditVerification,
} from './audit-verify';

export type { AdoptResult, AuditVerification } from './audit-verify';
export type { AuditProblem, AuditRow } from './audit-chain';

export const AUDIT_KINDS = [
  'created',
  'revised',
  'submitted',
  'approved',
  'changes_requested',
  'rejected',
  'superseded',
  'user_created',
  'role_changed',
  'token_created',
  'token_revoked',
  'registry_changed',
  'webhook_created',
  'webhook_deleted',
  'comment_created',
  'comment_resolved',
  'comment_reopened',
  // Running approved plans: who started which approved hash, and who decided at its gates.
  'run_started',
  'run_cancelled',
  // A run stopped because its approved revision no longer hashed as approved.
  'run_integrity_failed',
  'gate_approved',
  'gate_rejected',
  // A person's passkeys for signing decisions (their keys are published at GET /api/keys).
  'passkey_registered',
  'passkey_revoked',
  // A sign-in with a passkey instead of a password.
  'passkey_sign_in',
  // An operator trusted a chain that had no signed head (one from before heads were signed).
  'audit_adopted',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditInput {
  kind: AuditKind;
  actor: string;
  planId?: string | null;
  revision?: number | null;
  contentHash?: string | null;
  detail?: Record<string, unknown>;
}

/** An event in the REST shape (snake_case). */
export function auditEventOf(row: AuditRow) {
  return { seq: row.seq, ...eventContent(row), hash: row.hash };
}

let warnedUnsigned = false;

function markerPath(): string {
  try {
    return auditSignedMarkerPath();
  } catch {
    return AUDIT_SIGNED_MARKER;
  }
}

/** Why a missing head is tampering once the trail has been signed (the marker exists). */
function headDeletedReason(last: { seq: number }): string {
  return (
    `the trail has events up to ${last.seq} but no signed head, although it has been signed before (the marker ${markerPath()} exists): ` +
    `the head row was deleted, which is tampering; nothing done to the trail since can be detected until an operator has looked into it ` +
    `(only then: npm run plangate -- audit adopt --replace-head)`
  );
}

/**
 * checkEnds, with a missing head read as tampering when the trail has been signed before
 * (the `audit.signed` marker). The marker is looked for only when the head is missing.
 */
function checkEndsHere(ends: ChainEnds, key: Parameters<typeof checkEnds>[1]): AuditFailure | null {
  const problem = checkEnds(ends, key, auditKeyHint);
  if (problem?.problem === 'no_head' && ends.last && auditSignedBefore()) return { ...problem, reason: headDeletedReason(ends.last) };
  return problem;
}

/** Whether a verification's missing head is a deleted one (tampering) rather than a trail from before signing. */
function withMarker(result: AuditVerification): AuditVerification {
  if (result.ok || result.problem !== 'no_head' || result.seq === undefined || !auditSignedBefore()) return result;
  return { ...result, reason: headDeletedReason({ seq: result.seq }) };
}

/**
 * Verifies the whole audit trail (see audit-verify's verifyAudit). A missing head is
 * reported as tampering once the trail has been signed here (the `audit.signed` marker).
 */
export async function verifyAudit(db: Database): Promise<AuditVerification> {
  return withMarker(await verifyChain(db));
}

/** The hand-off's check (see audit-verify's verifyPlanRevision), with a deleted head named as tampering. */
export async function verifyPlanRevision(db: Database, planId: string, revision: number): Promise<AuditVerification> {
  return withMarker(await verifyRevision(db, planId, revision));
}

/**
 * Signs a chain that has no signed head (see audit-verify's adoptAuditChain). Once the
 * trail has been signed here (the `audit.signed` marker), a missing head was deleted, and
 * adopting would launder whatever was done to the chain: that needs `replaceHead`, as a
 * head that does not vouch for the chain does.
 */
export async function adoptAuditChain(db: Database, options: { actor: string; replaceHead?: boolean }): Promise<AdoptResult> {
  if (!options.replaceHead && auditSignedBefore()) {
    const ends = await readEnds(db);
    if (ends.last && !ends.head) {
      return {
        adopted: false,
        reason: `${headDeletedReason(ends.last)}. Adopting would hide that. If you have looked into it, run again with --replace-head`,
      };
    }
  }
  const result = await adoptChain(db, options);
  if (result.adopted) markAuditSigned();
  return result;
}

/**
 * Appends inside the caller's transaction, so an event exists exactly when its change does,
 * and moves the signed head to it in the same transaction, under the same lock.
 *
 * Refuses (409 integrity) to extend a chain whose end the signed head does not vouch for
 * (truncated, extended, rewritten, or signed with another key): linking a new event to a
 * tampered end would launder the tampering. A trail from before signed heads (events, no
 * head) is extended unsigned, with a warning, until an operator adopts it; but once the
 * trail has been signed here (the `audit.signed` marker in the key directory, written by
 * the first signed append), a missing head is a deleted one, and refused like the rest.
 */
export async function appendAudit(tx: Database, input: AuditInput): Promise<AuditRow> {
  const key = auditKey();
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const ends = await readEnds(tx);
  // A missing head is a trail from before signing, unless the marker says it was signed.
  const problem = checkEndsHere(ends, key) ?? rollbackOf(ends);
  const unsigned = problem?.problem === 'no_head' && !auditSignedBefore();
  if (problem && !unsigned) {
    throw new AppError(
      'integrity',
      409,
      `The audit trail failed its check, so nothing more is recorded until an operator looks into it (npm run plangate -- audit verify): ${problem.reason}.`,
      undefined,
      { reason: problem.problem },
    );
  }
  if (unsigned && !warnedUnsigned) {
    warnedUnsigned = true;
    console.warn(`[plangate] WARNING: the audit trail is not signed; ${problem.reason}. Until then "audit verify" and hand-offs fail.`);
  }
  const row = {
    at: new Date().toISOString(),
    kind: input.kind,
    actor: input.actor,
    planId: input.planId ?? null,
    revision: input.revision ?? null,
    contentHash: input.contentHash ?? null,
    detail: input.detail ?? {},
    prevHash: ends.last?.hash ?? GENESIS,
  };
  const [inserted] = await tx
    .insert(auditEvents)
    .values({ ...row, hash: hashEvent(row) })
    .returning();
  if (!unsigned) {
    const head = { seq: inserted.seq, hash: inserted.hash, signature: signHead(key, inserted.seq, inserted.hash) };
    await tx
      .insert(auditHead)
      .values({ id: HEAD_ID, ...head })
      .onConflictDoUpdate({ target: auditHead.id, set: head });
    // From now on a missing head is tampering. An in-process flag after the first time.
    markAuditSigned();
  }
  return inserted;
}

/**
 * For start-up: loads the audit key (making its key file, with a warning, on first start)
 * and checks that the signed head vouches for the chain's end, warning loudly when it does
 * not (a trail from before signed heads names `audit adopt`). Never throws for a failed
 * check, and walks nothing: `verifyAudit` is the full check.
 */
export async function prepareAuditTrail(db: Database): Promise<AuditProblem | null> {
  const key = auditKey();
  const ends = await readEnds(db);
  const problem = checkEndsHere(ends, key);
  if (problem) {
    console.warn(
      problem.problem === 'no_head' && !auditSignedBefore()
        ? `[plangate] WARNING: the audit trail is not signed: ${problem.reason}. Until then "audit verify" and hand-offs fail.`
        : `[plangate] WARNING: the audit trail fails its check, and nothing more will be recorded in it: ${problem.reason}. Run "npm run plangate -- audit verify".`,
    );
  }
  return problem?.problem ?? null;
}

/** A plan's events, oldest first; with `page`, at most `limit` of them after seq `afterSeq`. */
export async function listPlanAudit(db: Database, planId: string, page?: { afterSeq: number; limit: number }): Promise<AuditRow[]> {
  const query = db
    .select()
    .from(auditEvents)
    .where(page ? and(eq(auditEvents.planId, planId), gt(auditEvents.seq, page.afterSeq)) : eq(auditEvents.planId, planId))
    .orderBy(asc(auditEvents.seq));
  return page ? query.limit(page.limit) : query;
}
