import 'server-only';
import { cose, decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';
import { AppError } from '../platform/errors';

// The published form of a passkey: the COSE key the authenticator gave, re-expressed as a JWK
// so a verifier needs only its platform's crypto (node:crypto, Python's cryptography).

export type PasskeyAlg = 'ES256' | 'EdDSA';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function refused(what: string): AppError {
  return new AppError(
    'unprocessable',
    422,
    `This passkey uses ${what}; Plangate accepts ES256 (ECDSA P-256) and Ed25519 keys, which every verifier can check. Try another authenticator. Nothing was registered.`,
  );
}

export function coseToJwk(publicKey: Uint8Array): { alg: PasskeyAlg; jwk: Record<string, string> } {
  // Read as a plain map: the library's types only admit the keys of one key type at a time.
  const key = decodeCredentialPublicKey(new Uint8Array(publicKey)) as unknown as Map<number, unknown>;
  const kty = key.get(cose.COSEKEYS.kty);
  const alg = key.get(cose.COSEKEYS.alg);
  const crv = key.get(cose.COSEKEYS.crv);
  const x = key.get(cose.COSEKEYS.x);
  if (kty === cose.COSEKTY.EC2 && alg === cose.COSEALG.ES256 && crv === cose.COSECRV.P256) {
    const y = key.get(cose.COSEKEYS.y);
    if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array)) throw refused('an EC2 key without coordinates');
    return { alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256', x: b64url(x), y: b64url(y) } };
  }
  if (kty === cose.COSEKTY.OKP && alg === cose.COSEALG.EdDSA && crv === cose.COSECRV.ED25519) {
    if (!(x instanceof Uint8Array)) throw refused('an OKP key without its public bytes');
    return { alg: 'EdDSA', jwk: { kty: 'OKP', crv: 'Ed25519', x: b64url(x) } };
  }
  throw refused(`COSE algorithm ${String(alg)}`);
}
