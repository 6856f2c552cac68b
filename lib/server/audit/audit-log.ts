import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { auditEvents, auditHead } from '../db/schema';
import { AppError } from '../errors';
import { AUDIT_LOCK_KEY, GENESIS, HEAD_ID, checkEnds, eventContent, hashEvent, readEnds, type AuditProblem, type AuditRow } from './audit-chain';
import { auditKey, auditKeyHint, signHead } from './audit-key';
import { rollbackOf } from './audit-verify';

export { adoptAuditChain, verifyAudit, verifyPlanRevision, type AdoptResult, type AuditVerification } from './audit-verify';
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

/**
 * Appends inside the caller's transaction, so an event exists exactly when its change does,
 * and moves the signed head to it in the same transaction, under the same lock.
 *
 * Refuses (409 integrity) to extend a chain whose end the signed head does not vouch for
 * (truncated, extended, rewritten, or signed with another key): linking a new event to a
 * tampered end would launder the tampering. A trail from before signed heads (events, no
 * head) is extended unsigned, with a warning, until an operator adopts it.
 */
export async function appendAudit(tx: Database, input: AuditInput): Promise<AuditRow> {
  const key = auditKey();
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const ends = await readEnds(tx);
  const problem = checkEnds(ends, key, auditKeyHint) ?? rollbackOf(ends);
  const unsigned = problem?.problem === 'no_head';
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
  const problem = checkEnds(ends, key, auditKeyHint);
  if (problem) {
    console.warn(
      problem.problem === 'no_head'
        ? `[plangate] WARNING: the audit trail is not signed: ${problem.reason}. Until then "audit verify" and hand-offs fail.`
        : `[plangate] WARNING: the audit trail fails its check, and nothing more will be recorded in it: ${problem.reason}. Run "npm run plangate -- audit verify".`,
    );
  }
  return problem?.problem ?? null;
}

export async function listPlanAudit(db: Database, planId: string): Promise<AuditRow[]> {
  return db.select().from(auditEvents).where(eq(auditEvents.planId, planId)).orderBy(asc(auditEvents.seq));
}
