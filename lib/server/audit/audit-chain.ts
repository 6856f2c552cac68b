import 'server-only';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { sql } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import type { auditEvents } from '../platform/db/schema';
import { checkHeadSignature, type AuditKey } from './audit-key';

// The chain's primitives, shared by appending and verifying: how an event is hashed, where
// the chain ends, and whether its signed head vouches for that end.

export type AuditRow = typeof auditEvents.$inferSelect;

export const GENESIS = 'sha256:' + '0'.repeat(64);
/** The id of the one `audit_head` row. */
export const HEAD_ID = 'audit';
// One chain for the whole database: appends take this lock so two writers never both
// link to the same predecessor, and the head row moves with the chain.
export const AUDIT_LOCK_KEY = 7_316_004;

/** An event's content as clients see it and as its hash covers it: everything but its position and own hash. */
export function eventContent(row: Omit<AuditRow, 'seq' | 'hash'>) {
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

export function hashEvent(row: Omit<AuditRow, 'seq' | 'hash'>): string {
  const canonical = canonicalize(eventContent(row));
  if (canonical === undefined) throw new Error('hashEvent: the event could not be serialised');
  return 'sha256:' + createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** Why a trail fails verification, for callers that act on the kind rather than the sentence. */
export type AuditProblem =
  | 'altered' // an event's content does not match its hash
  | 'unlinked' // an event does not link to the one before it (one removed, inserted or re-hashed)
  | 'no_head' // events but no signed head (a trail from before signing, or the head was deleted)
  | 'no_key' // the head cannot be checked: no audit key here
  | 'bad_signature' // the head's signature is not this key's
  | 'truncated' // the trail ends before the signed head
  | 'forged_append' // events after the signed head
  | 'rewritten' // the last event is at the head's position but is not the signed one
  | 'rolled_back' // the signed head is older than one this process already verified
  | 'trail_altered' // a plan's events in the database differ from the verified chain
  | 'body_altered' // a revision body does not match the digest its event recorded
  | 'revision_unrecorded' // a revision row without a created/revised event
  | 'revision_missing' // a created/revised event whose revision row is gone
  | 'review_forged' // a review row without a matching decision event
  | 'review_missing' // a decision event whose review row is gone
  | 'review_resurrected'; // a review a superseded event voided is not marked superseded

export interface AuditFailure {
  problem: AuditProblem;
  seq?: number;
  reason: string;
}

export interface ChainEnds {
  first: { seq: number; hash: string } | null;
  last: { seq: number; hash: string } | null;
  head: { seq: number; hash: string; signature: string } | null;
}

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));

/** The chain's first and last events and its head row, read in one statement so they agree. */
export async function readEnds(db: Database): Promise<ChainEnds> {
  const result = await db.execute(sql`
    select f.seq as first_seq, f.hash as first_hash, l.seq as last_seq, l.hash as last_hash,
           h.seq as head_seq, h.hash as head_hash, h.signature as head_signature
    from (select 1) as one
    left join lateral (select seq, hash from audit_events order by seq asc limit 1) as f on true
    left join lateral (select seq, hash from audit_events order by seq desc limit 1) as l on true
    left join audit_head as h on h.id = ${HEAD_ID}`);
  const row = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
  return {
    first: row.first_seq == null ? null : { seq: num(row.first_seq), hash: String(row.first_hash) },
    last: row.last_seq == null ? null : { seq: num(row.last_seq), hash: String(row.last_hash) },
    head: row.head_seq == null ? null : { seq: num(row.head_seq), hash: String(row.head_hash), signature: String(row.head_signature) },
  };
}

/**
 * Whether the signed head vouches for the chain's last event. `key` null means no key is
 * available here. Null when the trail is empty and unsigned, or the head is this key's
 * signature of exactly the last event.
 */
export function checkEnds(ends: ChainEnds, key: AuditKey | null, keyHint: () => string): AuditFailure | null {
  const { last, head } = ends;
  if (!head) {
    if (!last) return null;
    return {
      problem: 'no_head',
      seq: last.seq,
      reason:
        `the trail has events up to ${last.seq} but no signed head: either it predates signed heads (after checking it, ` +
        `run "npm run plangate -- audit adopt" to trust it up to event ${last.seq}) or the head row was deleted`,
    };
  }
  if (!key) return { problem: 'no_key', seq: head.seq, reason: `the signed head cannot be checked: no audit key here; ${keyHint()}` };
  const signature = checkHeadSignature(key, head.seq, head.hash, head.signature);
  if (!signature.valid) {
    return {
      problem: 'bad_signature',
      seq: head.seq,
      reason: signature.otherKey
        ? `the head (event ${head.seq}) claims to be signed with key ${signature.otherKey}, but this process has key ${key.id} (from ${key.source}): ` +
          `either the head was forged or this is not the server's key (${keyHint()})`
        : `the head (event ${head.seq}) does not carry a valid signature: it was forged or altered`,
    };
  }
  if (!last) {
    return { problem: 'truncated', seq: head.seq, reason: `the trail is empty, but the signed head names event ${head.seq}: its events were deleted` };
  }
  if (last.seq < head.seq) {
    return {
      problem: 'truncated',
      seq: last.seq,
      reason: `the trail ends at event ${last.seq}, but the signed head names event ${head.seq}: events were deleted from its end (truncation)`,
    };
  }
  if (last.seq > head.seq) {
    return {
      problem: 'forged_append',
      seq: last.seq,
      reason: `events after the signed head (event ${head.seq}) up to ${last.seq} were not appended by Plangate: a forged append`,
    };
  }
  if (last.hash !== head.hash) {
    return {
      problem: 'rewritten',
      seq: last.seq,
      reason: `event ${last.seq} is not the event the head signed: the chain was rewritten and re-hashed`,
    };
  }
  return null;
}
