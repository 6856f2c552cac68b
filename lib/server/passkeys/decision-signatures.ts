import 'server-only';
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { DecisionSignature, SignedDecision } from '@/lib/api/passkey-schemas';
import { canonicalJson } from '../audit/digests';
import type { Principal } from '../auth/principal-type';
import type { Database } from '../platform/db/client';
import { decisionSignatures, passkeys } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { checkedOrigin, type RelyingParty } from './relying-party';
import { verifyAssertion } from './verify-assertion';

// A decision signed with a passkey: the WebAuthn challenge is the SHA-256 of the RFC 8785
// JSON of what was decided (SignedDecision), so the authenticator's signature binds that
// plan, revision, content, resources, verdict, gate and time, and cannot be moved to another.
// The server checks it here before the decision is recorded; executors check it again from
// the hand-off and GET /api/keys (scripts/verify-approvals.mjs, docs/security.md).

/** How far a signed decision's `at` may be from the server's clock when it is submitted. */
export const SIGNED_AT_WINDOW_MS = 5 * 60_000;

/** PLANGATE_REQUIRE_SIGNED_APPROVALS=on: a decision without a passkey signature is refused, and an approval without one does not count. */
export function signedDecisionsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['on', 'true', '1'].includes((env.PLANGATE_REQUIRE_SIGNED_APPROVALS ?? '').trim().toLowerCase());
}

/** The challenge bytes: SHA-256 of the canonical JSON of what is signed. */
export function decisionChallenge(signed: SignedDecision): Buffer {
  return createHash('sha256').update(canonicalJson(signed), 'utf8').digest();
}

/** The challenge as clientDataJSON carries it (base64url). */
export function challengeText(signed: SignedDecision): string {
  return decisionChallenge(signed).toString('base64url');
}

/** What a decision binds, as the server sees it now; the signed object must say exactly this. */
export type ExpectedDecision = Omit<SignedDecision, 'at'>;

const NO_PASSKEY = 'You have no passkey for this site; add one on your account page (/account) to sign decisions.';

/**
 * Starts signing: the object to sign (stamped with the server's time) and the options for
 * navigator.credentials.get() over it, offering the signer's own live passkeys.
 */
export async function signingOptions(
  db: Database,
  principal: Principal,
  rp: RelyingParty,
  expected: ExpectedDecision,
): Promise<{ signed: SignedDecision; options: PublicKeyCredentialRequestOptionsJSON }> {
  const keys = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.username, principal.username), eq(passkeys.rpId, rp.rpId), isNull(passkeys.revokedAt)));
  if (!keys.length) throw new AppError('unprocessable', 422, NO_PASSKEY);
  const signed: SignedDecision = { ...expected, at: new Date().toISOString() };
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    challenge: new Uint8Array(decisionChallenge(signed)),
    allowCredentials: keys.map((key) => ({ id: key.kid, transports: key.transports })),
    userVerification: 'required',
    timeout: 120_000,
  });
  return { signed, options };
}

function refused(message: string): AppError {
  return new AppError('bad_request', 400, `${message} Nothing was recorded.`);
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** Names the first field where the signed object and the decision being made disagree. */
function checkBinding(signed: SignedDecision, expected: ExpectedDecision): void {
  for (const field of ['plan_id', 'revision', 'content_hash', 'resources_hash', 'decision'] as const) {
    if (signed[field] !== expected[field]) {
      throw refused(`The signature is over ${field} ${describe(signed[field])}, but this decision is on ${describe(expected[field])}.`);
    }
  }
  if (canonicalJson(signed.gate ?? null) !== canonicalJson(expected.gate ?? null)) {
    throw refused(`The signature is over gate ${describe(signed.gate)}, but this decision is on ${describe(expected.gate)}.`);
  }
}

export interface VerifiedSignature {
  kid: string;
  challenge: string;
  signed: SignedDecision;
  authenticatorData: string;
  clientDataJson: string;
  signature: string;
}

/**
 * Checks a decision's signature before the decision is recorded: it is over exactly this
 * decision, made now (within 5 minutes), by the signer's own passkey that is not revoked,
 * on this app, with the user verified, and never used before. Refuses with what is wrong.
 */
export async function verifyDecisionSignature(
  tx: Database,
  principal: Principal,
  rp: RelyingParty,
  input: DecisionSignature,
  expected: ExpectedDecision,
): Promise<VerifiedSignature> {
  const { signed, webauthn, kid } = input;
  checkBinding(signed, expected);
  const skew = Math.abs(Date.parse(signed.at) - Date.now());
  if (!(skew <= SIGNED_AT_WINDOW_MS)) {
    throw refused(`The signed time ${signed.at} is ${Math.round(skew / 1000)} seconds from the server's clock; a signed decision must be submitted within ${SIGNED_AT_WINDOW_MS / 60_000} minutes.`);
  }
  const [key] = await tx.select().from(passkeys).where(eq(passkeys.kid, kid)).for('update');
  if (!key || key.username !== principal.username) throw refused(`The passkey ${kid.slice(0, 24)}… is not one of ${principal.username}'s.`);
  if (key.revokedAt) throw refused(`The passkey "${key.label}" was revoked at ${key.revokedAt.toISOString()}; sign with another one.`);
  const challenge = challengeText(signed);
  const [used] = await tx.select({ id: decisionSignatures.id }).from(decisionSignatures).where(eq(decisionSignatures.challenge, challenge));
  if (used) throw refused('This signed decision was submitted before; a signature backs one decision only.');
  const origin = checkedOrigin(rp, webauthn.clientDataJSON, key.rpId, 'Nothing was recorded.');
  const outcome = await verifyAssertion(key, webauthn, challenge, origin);
  if (!outcome.verified) throw refused(`The passkey signature does not verify: ${outcome.reason}.`);
  await tx.update(passkeys).set({ counter: outcome.newCounter }).where(eq(passkeys.kid, kid));
  return { kid, challenge, signed, authenticatorData: webauthn.authenticatorData, clientDataJson: webauthn.clientDataJSON, signature: webauthn.signature };
}

/**
 * The signature a decision carries, verified; null for an unsigned one, which is refused
 * while PLANGATE_REQUIRE_SIGNED_APPROVALS is on.
 */
export async function acceptDecisionSignature(
  tx: Database,
  principal: Principal,
  signature: DecisionSignature | undefined,
  expected: ExpectedDecision,
  rp: RelyingParty | undefined,
): Promise<VerifiedSignature | null> {
  if (!signature) {
    if (signedDecisionsRequired()) {
      throw new AppError(
        'unprocessable',
        422,
        'This server requires every decision to be signed with a passkey (PLANGATE_REQUIRE_SIGNED_APPROVALS is on). Sign it with your passkey; add one on your account page (/account) first if you have none. Nothing was recorded.',
      );
    }
    return null;
  }
  if (!rp) throw refused('The request names no host, so the passkey signature cannot be checked.');
  return verifyDecisionSignature(tx, principal, rp, signature, expected);
}

type Target = { reviewId: number } | { runId: string; taskId: string; generation: number };

export async function recordDecisionSignature(tx: Database, target: Target, verified: VerifiedSignature): Promise<void> {
  await tx.insert(decisionSignatures).values({
    ...target,
    kid: verified.kid,
    challenge: verified.challenge,
    signed: verified.signed,
    authenticatorData: verified.authenticatorData,
    clientDataJson: verified.clientDataJson,
    signature: verified.signature,
  });
}

type SignatureRow = typeof decisionSignatures.$inferSelect;

function signatureOf(row: SignatureRow): DecisionSignature {
  return {
    kid: row.kid,
    signed: row.signed as SignedDecision,
    webauthn: { authenticatorData: row.authenticatorData, clientDataJSON: row.clientDataJson, signature: row.signature },
  };
}

/** The signatures of these plan reviews, by review id. */
export async function reviewSignatures(db: Database, reviewIds: number[]): Promise<Map<number, DecisionSignature>> {
  if (!reviewIds.length) return new Map();
  const rows = await db.select().from(decisionSignatures).where(inArray(decisionSignatures.reviewId, reviewIds));
  return new Map(rows.map((row) => [row.reviewId!, signatureOf(row)]));
}

/** The signatures of a run's gate decisions, keyed "task id \n generation". */
export async function gateSignatures(db: Database, runId: string): Promise<Map<string, DecisionSignature>> {
  const rows = await db.select().from(decisionSignatures).where(eq(decisionSignatures.runId, runId)).orderBy(asc(decisionSignatures.id));
  return new Map(rows.map((row) => [`${row.taskId}\n${row.generation}`, signatureOf(row)]));
}
