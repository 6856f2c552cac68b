import { asc, desc, eq, sql } from 'drizzle-orm';
import canonicalize from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Database } from '../db/client';
import { auditEvents } from '../db/schema';

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

export type AuditRow = typeof auditEvents.$inferSelect;

const GENESIS = 'sha256:' + '0'.repeat(64);
// One chain for the whole database: appends take this lock so two writers never both
// link to the same predecessor.
const AUDIT_LOCK_KEY = 7_316_004;

/** An event's content as clients see it and as its hash covers it: everything but its position and own hash. */
function eventContent(row: Omit<AuditRow, 'seq' | 'hash'>) {
  return {
    at: row.at,
    kind: row.kind,
    actor: row.actor,
    plan_id: row.planId,
    revision: row.revision,
    content_hash: row.contentHash,
    detail: row.detail,
    prev_hash: row.prevHash,
  };
}

/** An event in the REST shape (snake_case). */
export function auditEventOf(row: AuditRow) {
  return { seq: row.seq, ...eventContent(row), hash: row.hash };
}

function hashEvent(row: Omit<AuditRow, 'seq' | 'hash'>): string {
  const canonical = canonicalize(eventContent(row));
  return 'sha256:' + bytesToHex(sha256(new TextEncoder().encode(canonical)));
}

/** Appends inside the caller's transaction, so an event exists exactly when its change does. */
export async function appendAudit(tx: Database, input: AuditInput): Promise<AuditRow> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.seq)).limit(1);
  const row = {
    at: new Date().toISOString(),
    kind: input.kind,
    actor: input.actor,
    planId: input.planId ?? null,
    revision: input.revision ?? null,
    contentHash: input.contentHash ?? null,
    detail: input.detail ?? {},
    prevHash: last?.hash ?? GENESIS,
  };
  const [inserted] = await tx
    .insert(auditEvents)
    .values({ ...row, hash: hashEvent(row) })
    .returning();
  return inserted;
}

export async function listPlanAudit(db: Database, planId: string): Promise<AuditRow[]> {
  return db.select().from(auditEvents).where(eq(auditEvents.planId, planId)).orderBy(asc(auditEvents.seq));
}

export type AuditVerification = { ok: true; events: number } | { ok: false; events: number; seq: number; reason: string };

/** Walks the chain in order; the first event whose hash or link does not match is reported. */
export async function verifyAudit(db: Database): Promise<AuditVerification> {
  const rows = await db.select().from(auditEvents).orderBy(asc(auditEvents.seq));
  let previous = GENESIS;
  for (const row of rows) {
    if (row.prevHash !== previous) {
      return { ok: false, events: rows.length, seq: row.seq, reason: `event ${row.seq} does not link to the event before it (a row was removed or altered)` };
    }
    if (hashEvent(row) !== row.hash) {
      return { ok: false, events: rows.length, seq: row.seq, reason: `event ${row.seq} was altered: its content no longer matches its hash` };
    }
    previous = row.hash;
  }
  return { ok: true, events: rows.length };
}
