import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import type { SignedDecision } from '@/lib/api/passkey-schemas';
import { decide, getApprovedPlan, getGate, submitForReview } from '../approval/approval-service';
import { passkeys } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan } from '../plans/plan-service';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { publishedKeys, revokePasskey } from './passkey-service';
import { softAuthenticator } from './soft-authenticator-test-support';

// Signed plan decisions end to end on the server: what decide() takes and refuses, what the
// hand-off then carries, and that scripts/verify-approvals.mjs (node:crypto only) agrees.

const editor = principal('eddie', 'editor');
const alice = principal('alice', 'approver');
const bob = principal('bob', 'approver');
const rp = { host: 'localhost:3000', rpId: 'localhost', trusted: [] };
const origin = 'http://localhost:3000';
const root = path.resolve(__dirname, '../../..');

function verifyWithNode(handOff: unknown, keys: unknown) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plangate-verify-'));
  writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(keys));
  const run = spawnSync(process.execPath, ['scripts/verify-approvals.mjs', '-', path.join(dir, 'keys.json')], { cwd: root, input: JSON.stringify(handOff), encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterEach(() => {
  delete process.env.PLANGATE_REQUIRE_SIGNED_APPROVALS;
});

describe.each(testDatabases())('passkey-signed decisions on $name', (database) => {
  const db = useTestDatabase(database);

  async function inReview(title: string) {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title, plan: FETCH_THEN_SUMMARISE }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const gate = await getGate(db(), created.id);
    const signed: SignedDecision = {
      plan_id: created.id,
      revision: created.revision,
      content_hash: created.content_hash,
      resources_hash: gate.resources_hash!,
      decision: 'approved',
      at: new Date().toISOString(),
    };
    return { id: created.id, claim: { revision: created.revision, content_hash: created.content_hash, resources_hash: gate.resources_hash!, comment: '' }, signed };
  }

  async function keyOf(username: string, alg: 'ES256' | 'EdDSA' = 'ES256') {
    const key = softAuthenticator({ rpId: 'localhost', origin, alg });
    await db().insert(passkeys).values(key.row(username));
    return key;
  }

  it('records a signed approval, hands it over with its signature, and an outside verifier accepts it but not a tampered copy', async () => {
    const key = await keyOf('alice');
    const plan = await inReview('Signed');
    await decide(db(), plan.id, 'approved', { ...plan.claim, signature: key.sign(plan.signed) }, alice, rp);

    const handOff = await getApprovedPlan(db(), plan.id);
    expect(handOff.plan_id).toBe(plan.id);
    expect(handOff.approvals[0].signature).toMatchObject({ kid: key.kid, signed: plan.signed });
    const keys = { keys: await publishedKeys(db()) };
    const verified = verifyWithNode(handOff, keys);
    expect(verified.output).toContain('All 1 decisions verify');
    expect(verified.status).toBe(0);

    const tampered = { ...handOff, content_hash: `sha256:${'0'.repeat(64)}`, approvals: handOff.approvals.map((a) => ({ ...a, content_hash: `sha256:${'0'.repeat(64)}` })) };
    const refused = verifyWithNode(tampered, keys);
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/FAIL .*content_hash/);
  });

  it('accepts an Ed25519 passkey too', async () => {
    const key = await keyOf('bob', 'EdDSA');
    const plan = await inReview('Ed25519');
    await decide(db(), plan.id, 'approved', { ...plan.claim, signature: key.sign(plan.signed) }, bob, rp);
    expect(verifyWithNode(await getApprovedPlan(db(), plan.id), { keys: await publishedKeys(db()) }).status).toBe(0);
  });

  it('refuses a signature that is not over exactly this decision, now, by the decider, verified, and records nothing', async () => {
    const key = await keyOf('alice');
    const plan = await inReview('Refusals');
    const other = await inReview('Another plan');
    const attempts: Array<[string, Parameters<typeof decide>[3], RegExp]> = [
      ['another plan', { ...plan.claim, signature: key.sign(other.signed) }, /plan_id/],
      ['another verdict', { ...plan.claim, signature: key.sign({ ...plan.signed, decision: 'rejected' }) }, /decision "rejected"/],
      ['an old time', { ...plan.claim, signature: key.sign({ ...plan.signed, at: new Date(Date.now() - 10 * 60_000).toISOString() }) }, /within 5 minutes/],
      ['no user verification', { ...plan.claim, signature: key.sign(plan.signed, { flags: 0x01 }) }, /verif/i],
      ['another site', { ...plan.claim, signature: key.sign(plan.signed, { origin: 'https://evil.example' }) }, /signed on https:\/\/evil\.example/],
      ['a forged signature', { ...plan.claim, signature: { ...key.sign(plan.signed), webauthn: { ...key.sign(plan.signed).webauthn, signature: key.sign(other.signed).webauthn.signature } } }, /does not verify/],
    ];
    for (const [what, request, message] of attempts) {
      const error = await refusal(decide(db(), plan.id, 'approved', request, alice, rp));
      expect([what, error.status, error.message]).toEqual([what, 400, expect.stringMatching(message)]);
    }
    // Bob signing with Alice's key.
    const stolen = await refusal(decide(db(), plan.id, 'approved', { ...plan.claim, signature: key.sign(plan.signed) }, bob, rp));
    expect(stolen.message).toMatch(/not one of bob's/);
    expect((await getGate(db(), plan.id)).reviews).toEqual([]);
  });

  it('refuses a decision signed with a revoked passkey; a key kept for rotation still signs', async () => {
    const old = await keyOf('alice');
    const fresh = await keyOf('alice');
    await revokePasskey(db(), alice, old.kid);
    const plan = await inReview('Rotation');
    const revoked = await refusal(decide(db(), plan.id, 'approved', { ...plan.claim, signature: old.sign(plan.signed) }, alice, rp));
    expect(revoked.message).toMatch(/was revoked at/);
    await decide(db(), plan.id, 'approved', { ...plan.claim, signature: fresh.sign(plan.signed) }, alice, rp);
    const keys = await publishedKeys(db());
    expect(keys.find((k) => k.kid === old.kid)?.revoked_at).not.toBeNull();
    expect(verifyWithNode(await getApprovedPlan(db(), plan.id), { keys }).status).toBe(0);
  });

  it('while signatures are required, refuses an unsigned decision and does not count an unsigned approval given before', async () => {
    const plan = await inReview('Required');
    await decide(db(), plan.id, 'approved', plan.claim, alice);
    process.env.PLANGATE_REQUIRE_SIGNED_APPROVALS = 'on';
    const handOff = await refusal(getApprovedPlan(db(), plan.id));
    expect([handOff.code, handOff.message]).toEqual(['not_approved', expect.stringContaining('1 unsigned approval does not count')]);

    const next = await inReview('Required, unsigned');
    const unsigned = await refusal(decide(db(), next.id, 'approved', next.claim, alice));
    expect([unsigned.status, unsigned.message]).toEqual([422, expect.stringContaining('PLANGATE_REQUIRE_SIGNED_APPROVALS')]);
    const key = await keyOf('alice');
    await decide(db(), next.id, 'approved', { ...next.claim, signature: key.sign(next.signed) }, alice, rp);
    expect((await getApprovedPlan(db(), next.id)).approvals).toHaveLength(1);
  });
});
