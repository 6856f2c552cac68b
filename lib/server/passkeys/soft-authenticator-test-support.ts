import 'server-only';
import { createHash, generateKeyPairSync, randomBytes, sign, type JsonWebKey } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponse, DecisionSignature, SignedDecision } from '@/lib/api/passkey-schemas';
import type { passkeys } from '../platform/db/schema';
import { challengeText } from './decision-signatures';

// A passkey authenticator in software, for tests: it signs what a browser's would (the
// authenticator data and the hash of clientDataJSON), so signed decisions can be made and
// verified without a browser. Flags and origin can be bent to make the refusals.

const UP = 0x01;
const UV = 0x04;

export interface SoftAuthenticator {
  kid: string;
  jwk: JsonWebKey;
  /** The row GET /api/keys publishes, as registration stores it. */
  row(username: string): typeof passkeys.$inferInsert;
  /** Signs `signed` as navigator.credentials.get() would on `origin`. */
  sign(signed: SignedDecision, options?: { origin?: string; flags?: number; type?: string }): DecisionSignature;
  /** Answers a sign-in's challenge as navigator.credentials.get() would, in @simplewebauthn/browser's shape. */
  answer(challenge: string, options?: AssertionOptions): AuthenticationResponse;
}

type AssertionOptions = { origin?: string; flags?: number; type?: string };

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

export function softAuthenticator({ rpId, origin, alg = 'ES256' }: { rpId: string; origin: string; alg?: 'ES256' | 'EdDSA' }): SoftAuthenticator {
  const { publicKey, privateKey } = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const cose =
    alg === 'ES256'
      ? new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, x], [-3, Buffer.from(jwk.y!, 'base64url')]])
      : new Map<number, number | Uint8Array>([[1, 1], [3, -8], [-1, 6], [-2, x]]);
  const kid = randomBytes(16).toString('base64url');
  let counter = 0;
  const assert = (challenge: string, { origin: at = origin, flags = UP | UV, type = 'webauthn.get' }: AssertionOptions = {}) => {
    counter += 1;
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));
    const data = Buffer.concat([authenticatorData, sha256(clientDataJSON)]);
    const signature = alg === 'ES256' ? sign('sha256', data, privateKey) : sign(null, data, privateKey);
    return { authenticatorData: authenticatorData.toString('base64url'), clientDataJSON: clientDataJSON.toString('base64url'), signature: signature.toString('base64url') };
  };
  return {
    kid,
    jwk,
    row: (username) => ({
      kid,
      username,
      label: `soft ${alg}`,
      publicKey: Buffer.from(isoCBOR.encode(cose as never)).toString('base64url'),
      jwk: jwk as Record<string, string>,
      alg,
      rpId,
    }),
    sign(signed, options) {
      return { kid, signed, webauthn: assert(challengeText(signed), options) };
    },
    answer(challenge, options) {
      const webauthn = assert(challenge, options);
      return { id: kid, rawId: kid, type: 'public-key', response: webauthn, clientExtensionResults: {} };
    },
  };
}
