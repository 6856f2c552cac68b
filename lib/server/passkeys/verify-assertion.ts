import 'server-only';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { passkeys } from '../platform/db/schema';

// The one check of a WebAuthn assertion against a stored passkey, for signed decisions and
// for sign-in alike: on the key's own RP id, for navigator.credentials.get(), with the user
// verified. Both callers have checked the origin and the challenge's owner first.

export type AssertionOutcome = { verified: true; newCounter: number } | { verified: false; reason: string };

export async function verifyAssertion(
  key: typeof passkeys.$inferSelect,
  assertion: { authenticatorData: string; clientDataJSON: string; signature: string; userHandle?: string },
  expectedChallenge: string,
  expectedOrigin: string,
): Promise<AssertionOutcome> {
  try {
    const verification = await verifyAuthenticationResponse({
      response: { id: key.kid, rawId: key.kid, type: 'public-key', response: assertion, clientExtensionResults: {} },
      expectedChallenge,
      expectedOrigin,
      expectedRPID: key.rpId,
      expectedType: 'webauthn.get',
      credential: { id: key.kid, publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')), counter: key.counter, transports: key.transports as never },
      requireUserVerification: true,
    });
    return verification.verified ? { verified: true, newCounter: verification.authenticationInfo.newCounter } : { verified: false, reason: 'it does not verify' };
  } catch (error) {
    return { verified: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
