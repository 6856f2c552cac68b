import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from '@simplewebauthn/server';
import type { PublicKey, RegistrationResponse } from '@/lib/api/passkey-schemas';
import { appendAudit } from '../audit/audit-log';
import type { Principal } from '../auth/principal-type';
import type { Database } from '../platform/db/client';
import { passkeyChallenges, passkeys } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { coseToJwk, type PasskeyAlg } from './cose-jwk';
import { checkedOrigin, readClientData, type RelyingParty } from './relying-party';

// Registering, listing and revoking a person's passkeys. A person may hold several (one per
// device, or a new one while the old is retired); revoking keeps the key published with its
// revocation time, so decisions it signed before then still verify.

/** How long a registration ceremony may take before its challenge expires. */
const REGISTRATION_TTL_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;

type PasskeyRow = typeof passkeys.$inferSelect;

export function publicKeyOf(row: PasskeyRow): PublicKey {
  return {
    kid: row.kid,
    username: row.username,
    label: row.label,
    alg: row.alg as PasskeyAlg,
    jwk: row.jwk,
    cose: row.publicKey,
    rp_id: row.rpId,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

function personOnly(principal: Principal): void {
  if (principal.service) throw new AppError('forbidden', 403, `${principal.username} is a service account; only a person signed in can hold a passkey`);
  if (principal.via !== 'session') throw new AppError('forbidden', 403, 'Passkeys are registered signed in, in the browser, not with an API token');
}

/** Starts a registration: the options for navigator.credentials.create(), with a one-use challenge. */
export async function registrationOptions(db: Database, principal: Principal, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
  personOnly(principal);
  const existing = await db.select().from(passkeys).where(and(eq(passkeys.username, principal.username), isNull(passkeys.revokedAt)));
  if (existing.length >= MAX_PASSKEYS) throw new AppError('conflict', 409, `You have ${MAX_PASSKEYS} passkeys already; revoke one before adding another`);
  const options = await generateRegistrationOptions({
    rpName: 'Plangate',
    rpID: rp.rpId,
    userName: principal.username,
    userID: new TextEncoder().encode(principal.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.kid, transports: row.transports as never })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    // ES256 and Ed25519: what the published verifiers check with only their platform's crypto.
    supportedAlgorithmIDs: [-7, -8],
    timeout: 120_000,
  });
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, new Date()));
  await db.insert(passkeyChallenges).values({
    id: randomBytes(16).toString('base64url'),
    username: principal.username,
    challenge: options.challenge,
    expiresAt: new Date(Date.now() + REGISTRATION_TTL_MS),
  });
  return options;
}

/** Finishes a registration: checks the authenticator's answer against the challenge issued (once) and stores the key. */
export async function registerPasskey(db: Database, principal: Principal, rp: RelyingParty, response: RegistrationResponse, label: string): Promise<PublicKey> {
  personOnly(principal);
  return db.transaction(async (tx) => {
    const { challenge } = readClientData(response.response.clientDataJSON);
    // Taken whatever happens next: a challenge answers one ceremony only.
    const [issued] = await tx
      .delete(passkeyChallenges)
      .where(and(eq(passkeyChallenges.username, principal.username), eq(passkeyChallenges.challenge, challenge)))
      .returning();
    if (!issued || issued.expiresAt < new Date()) {
      throw new AppError('bad_request', 400, 'This registration was not started here, was already used, or took over 5 minutes; start again. Nothing was registered.');
    }
    const origin = checkedOrigin(rp, response.response.clientDataJSON, rp.rpId, 'Nothing was registered.');
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: issued.challenge,
        expectedOrigin: origin,
        expectedRPID: rp.rpId,
        requireUserVerification: true,
        supportedAlgorithmIDs: [-7, -8],
      });
    } catch (error) {
      throw new AppError('bad_request', 400, `The authenticator's answer does not verify: ${error instanceof Error ? error.message : String(error)}. Nothing was registered.`);
    }
    if (!verification.verified || !verification.registrationInfo) throw new AppError('bad_request', 400, 'The authenticator\'s answer does not verify. Nothing was registered.');
    const { credential } = verification.registrationInfo;
    const { alg, jwk } = coseToJwk(credential.publicKey);
    const [taken] = await tx.select({ kid: passkeys.kid }).from(passkeys).where(eq(passkeys.kid, credential.id));
    if (taken) throw new AppError('conflict', 409, 'This passkey is registered already. Nothing changed.');
    const [row] = await tx
      .insert(passkeys)
      .values({
        kid: credential.id,
        username: principal.username,
        label: label || `Passkey ${new Date().toISOString().slice(0, 10)}`,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        jwk,
        alg,
        counter: credential.counter,
        transports: credential.transports ?? [],
        rpId: rp.rpId,
      })
      .returning();
    await appendAudit(tx, { kind: 'passkey_registered', actor: principal.username, detail: { username: principal.username, kid: row.kid, alg, rp_id: rp.rpId, label: row.label } });
    return publicKeyOf(row);
  });
}

/** One person's passkeys, revoked ones too, oldest first. */
export async function listPasskeys(db: Database, username: string): Promise<PublicKey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.username, username)).orderBy(asc(passkeys.createdAt));
  return rows.map(publicKeyOf);
}

/** Every passkey ever registered, as GET /api/keys publishes them. */
export async function publishedKeys(db: Database): Promise<PublicKey[]> {
  const rows = await db.select().from(passkeys).orderBy(asc(passkeys.createdAt), asc(passkeys.kid));
  return rows.map(publicKeyOf);
}

/**
 * Revokes a passkey now (its owner, or an admin): a decision it signs from now on does not
 * count. It stays published, so what it signed before still verifies. Revoking twice is not an error.
 */
export async function revokePasskey(db: Database, principal: Principal, kid: string): Promise<PublicKey> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(passkeys).where(eq(passkeys.kid, kid)).for('update');
    // Someone else's key is "not found" to a non-admin, like a token.
    if (!row || (row.username !== principal.username && principal.role !== 'admin')) throw notFound(`Passkey "${kid.slice(0, 64)}"`);
    if (row.revokedAt) return publicKeyOf(row);
    const [revoked] = await tx.update(passkeys).set({ revokedAt: new Date() }).where(eq(passkeys.kid, kid)).returning();
    await appendAudit(tx, { kind: 'passkey_revoked', actor: principal.username, detail: { username: row.username, kid } });
    return publicKeyOf(revoked);
  });
}
