import canonicalize from 'canonicalize';
import { sql } from 'drizzle-orm';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { testDatabases, useTestDatabase } from '../db/test-databases';
import { appendAudit, verifyAudit, type AuditInput, type AuditRow } from './audit-log';

const EVENTS: AuditInput[] = [
  { kind: 'user_created', actor: 'admin', detail: { username: 'alice', role: 'editor' } },
  // Keys out of order and nested: jsonb stores them its own way, and the hash must not care.
  { kind: 'created', actor: 'alice', planId: 'plan-1', revision: 1, contentHash: 'sha256:' + 'a'.repeat(64), detail: { zeta: 1, alpha: { b: [2, 'x'], a: null } } },
  { kind: 'role_changed', actor: 'admin', detail: { username: 'alice', from: 'editor', to: 'approver' } },
  { kind: 'token_created', actor: 'cli', detail: { username: 'alice', token_id: 't1', label: 'ci' } },
];

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

describe.each(testDatabases())('audit log on $name', (database) => {
  const db = useTestDatabase(database);

  // One chain per database: each test starts from an empty trail (an empty chain is valid,
  // and the next append links to the genesis hash again).
  beforeEach(async () => {
    await db().execute(sql`delete from audit_events`);
  });

  it('verifies an empty trail', async () => {
    expect(await verifyAudit(db())).toEqual({ ok: true, events: 0 });
  });

  it('links appended events into a chain that verifies', async () => {
    const rows = await appendEvents(db());
    expect(rows.map((r) => r.kind)).toEqual(EVENTS.map((e) => e.kind));
    expect(rows[0].prevHash).toBe('sha256:' + '0'.repeat(64));
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].seq).toBeGreaterThan(rows[i - 1].seq);
      expect(rows[i].prevHash).toBe(rows[i - 1].hash);
    }
    for (const row of rows) expect(row.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await verifyAudit(db())).toEqual({ ok: true, events: EVENTS.length });
  });

  it('names the event whose detail was changed by hand', async () => {
    const rows = await appendEvents(db());
    const target = rows[2];
    await db().execute(sql`update audit_events set detail = jsonb_set(detail, '{to}', '"admin"') where seq = ${target.seq}`);
    const result = await verifyAudit(db());
    expect(result).toMatchObject({ ok: false, events: EVENTS.length, seq: target.seq });
    expect(!result.ok && result.reason).toMatch(/altered/);
  });

  it('names the event whose actor was changed by hand', async () => {
    const rows = await appendEvents(db());
    const target = rows[1];
    await db().execute(sql`update audit_events set actor = 'mallory' where seq = ${target.seq}`);
    expect(await verifyAudit(db())).toMatchObject({ ok: false, seq: target.seq });
  });

  it('detects a deleted event at the one after it', async () => {
    const rows = await appendEvents(db());
    await db().execute(sql`delete from audit_events where seq = ${rows[1].seq}`);
    const result = await verifyAudit(db());
    expect(result).toMatchObject({ ok: false, events: EVENTS.length - 1, seq: rows[2].seq });
    expect(!result.ok && result.reason).toMatch(/does not link/);
  });

  it('catches a forger who rehashes the row they changed, at the next event', async () => {
    const rows = await appendEvents(db());
    const forged = { ...rows[0], actor: 'mallory' };
    // The hash as audit-log.ts computes it; the successor's prev_hash still holds the old one.
    const canonical = canonicalize({
      at: forged.at,
      kind: forged.kind,
      actor: forged.actor,
      plan_id: forged.planId,
      revision: forged.revision,
      content_hash: forged.contentHash,
      detail: forged.detail,
      prev_hash: forged.prevHash,
    });
    const hash = 'sha256:' + bytesToHex(sha256(new TextEncoder().encode(canonical)));
    await db().execute(sql`update audit_events set actor = ${forged.actor}, hash = ${hash} where seq = ${forged.seq}`);
    const result = await verifyAudit(db());
    expect(result).toMatchObject({ ok: false, seq: rows[1].seq });
    expect(!result.ok && result.reason).toMatch(/does not link/);
  });
});
