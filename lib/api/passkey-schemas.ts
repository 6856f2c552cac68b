import { z } from 'zod';

// Passkey-signed decisions (docs/security.md, "Passkey-signed decisions"): what a person's
// authenticator signs, how a signature travels, and the published keys that verify it.

const Base64Url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url (A-Z, a-z, 0-9, "-" and "_", no padding)');

const Hash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'A hash is "sha256:" and 64 hex digits');

/**
 * What a decision's signature covers. The WebAuthn challenge is the SHA-256 of its RFC 8785
 * canonical JSON, so the authenticator's signature binds exactly this plan, revision,
 * content, resources, verdict (and gate) at this time, and nothing else.
 */
export const SignedDecision = z.strictObject({
  plan_id: z.string().min(1).max(200),
  revision: z.number().int().min(1),
  content_hash: Hash,
  resources_hash: Hash,
  decision: z.enum(['approved', 'changes_requested', 'rejected', 'approve', 'reject']),
  gate: z
    .strictObject({
      run_id: z.string().min(1).max(100),
      task_id: z.string().min(1).max(200),
      input_hash: Hash.nullable().describe('The hash of the input approved; null for a reject'),
    })
    .optional()
    .describe('Present for a decision at a run\'s gate'),
  at: z.iso.datetime({ offset: false }).describe('When it was decided (ISO 8601, UTC); the server takes it only within 5 minutes of its clock'),
});
export type SignedDecision = z.infer<typeof SignedDecision>;

/** The authenticator's answer, as WebAuthn gives it (each base64url). */
export const WebAuthnAssertion = z.strictObject({
  authenticatorData: Base64Url(4096),
  clientDataJSON: Base64Url(8192),
  signature: Base64Url(1024),
});

/** A decision's signature: which key, what it signed, and the assertion. Sent with a decision and served with it. */
export const DecisionSignature = z.strictObject({
  kid: Base64Url(1400).min(1).describe('The passkey\'s credential id, as GET /api/keys lists it'),
  signed: SignedDecision,
  webauthn: WebAuthnAssertion,
});
export type DecisionSignature = z.infer<typeof DecisionSignature>;

export const PublicKey = z.object({
  kid: z.string(),
  username: z.string(),
  label: z.string(),
  alg: z.enum(['ES256', 'EdDSA']),
  jwk: z.record(z.string(), z.string()).describe('The public key as a JWK (EC P-256 or OKP Ed25519)'),
  cose: z.string().describe('The same key as the authenticator gave it: COSE, base64url'),
  rp_id: z.string().describe('The relying party id (host name) the passkey is scoped to: authenticatorData starts with its SHA-256'),
  created_at: z.string(),
  revoked_at: z.string().nullable().describe('A signature whose `at` is at or after this does not count'),
});
export type PublicKey = z.infer<typeof PublicKey>;

export const PublicKeysResponse = z.object({ keys: z.array(PublicKey) });
export type PublicKeysResponse = z.infer<typeof PublicKeysResponse>;

export const PasskeyLabel = z.string().trim().max(100, 'A passkey\'s name is at most 100 characters').default('');

/** What names the credential in any answer a browser gives. */
const Credential = { id: Base64Url(1400).min(1), rawId: Base64Url(1400).min(1), type: z.literal('public-key') };

/** A browser's answer to navigator.credentials.create(), as @simplewebauthn/browser gives it. */
export const RegistrationResponse = z.object({
  ...Credential,
  response: z.object({
    clientDataJSON: Base64Url(8192),
    attestationObject: Base64Url(65536),
    authenticatorData: Base64Url(65536).optional(),
    transports: z.array(z.string().max(40)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: Base64Url(4096).optional(),
  }),
  // Extensions are not used; what a browser reports is dropped.
  clientExtensionResults: z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type RegistrationResponse = z.infer<typeof RegistrationResponse>;

/** A browser's answer to navigator.credentials.get() when signing in, as @simplewebauthn/browser gives it. */
export const AuthenticationResponse = z.object({
  ...Credential,
  response: WebAuthnAssertion.extend({ userHandle: Base64Url(1024).optional() }),
  clientExtensionResults: z.object({}).passthrough(),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export type AuthenticationResponse = z.infer<typeof AuthenticationResponse>;
