import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The one way Plangate signs HTTP messages with a shared secret, and checks them:
// X-Plangate-Signature is "sha256=" + the hex HMAC-SHA256 of a signing string, keyed with the
// secret; X-Plangate-Timestamp (Unix seconds) is part of every signing string, so a captured
// message is refused once it is older than the clock-skew window.
//
// - What Plangate sends (events to a subscribed webhook, a task to a webhook executor) signs
//   "<timestamp>.<body>"; the body already names what it is about.
// - What an executor posts back to a result URL signs every part the result's meaning
//   depends on: "POST\n<result URL path>\n<attempt>\n<timestamp>\n<body>". Signed bytes
//   for one run, task or attempt therefore settle no other, and since no sent string starts
//   with "POST", nothing Plangate sent can be replayed to it as a result.

export const TIMESTAMP_HEADER = 'X-Plangate-Timestamp';
export const SIGNATURE_HEADER = 'X-Plangate-Signature';
/** Sent with a task to a webhook executor ("<generation>.<attempt>"), and signed back with its result. */
export const ATTEMPT_HEADER = 'X-Plangate-Attempt';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How far a signed timestamp may be from this server's clock, either way. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

const SIGNATURE_FORMAT = /^sha256=([0-9a-fA-F]{64})$/;

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** The signing string of a message Plangate sends. */
export function sentSigningString(timestamp: string, body: string): string {
  return `${timestamp}.${body}`;
}

export interface ResultSigningParts {
  /** Always POST: the result route takes nothing else. */
  method: string;
  /** The path of the result URL exactly as Plangate sent it (percent-encoded), e.g. /api/runs/r1/tasks/t1/result. */
  path: string;
  /** The attempt the executor was sent, exactly as X-Plangate-Attempt carried it ("<generation>.<attempt>"). */
  attempt: string;
  timestamp: string;
  body: string;
}

/** The signing string of a result an executor posts back. */
export function resultSigningString({ method, path, attempt, timestamp, body }: ResultSigningParts): string {
  return `${method.toUpperCase()}\n${path}\n${attempt}\n${timestamp}\n${body}`;
}

/** `sha256=<hex HMAC-SHA256 of signingString>` under `secret`. */
export function sign(secret: string, signingString: string): string {
  return `sha256=${hmacHex(secret, signingString)}`;
}

/** The timestamp and signature headers for sending `body` at `nowMs`. */
export function signedHeaders(secret: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: sign(secret, sentSigningString(timestamp, body)) };
}

/** Why `timestamp` is unusable at `nowMs` (malformed, or outside the skew window), or null. */
export function timestampProblem(timestamp: string | null | undefined, nowMs = Date.now()): string | null {
  if (!timestamp) return `${TIMESTAMP_HEADER} is required`;
  if (!/^\d{1,12}$/.test(timestamp)) return `${TIMESTAMP_HEADER} must be Unix seconds`;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    return `${TIMESTAMP_HEADER} is more than ${MAX_CLOCK_SKEW_SECONDS / 60} minutes from the server's clock`;
  }
  return null;
}

/** Why a signature header is malformed, or null. */
export function signatureFormatProblem(signature: string | null | undefined): string | null {
  if (!signature) return `${SIGNATURE_HEADER} is required`;
  return SIGNATURE_FORMAT.test(signature) ? null : `${SIGNATURE_HEADER} must be sha256=<64 hex digits>`;
}

/** Whether `signature` is `sign(secret, signingString)`; the comparison takes the same time whichever byte differs. */
export function signatureMatches(secret: string, signingString: string, signature: string | null | undefined): boolean {
  const given = SIGNATURE_FORMAT.exec(signature ?? '');
  if (!given) return false;
  return timingSafeEqual(Buffer.from(hmacHex(secret, signingString), 'hex'), Buffer.from(given[1], 'hex'));
}

export type SignatureVerdict = { ok: true } | { ok: false; reason: string };

/** What a receiver of a message Plangate sent checks: a fresh timestamp and the signature of "<timestamp>.<body>". */
export function verifySent(
  secret: string,
  signed: { timestamp: string | null | undefined; signature: string | null | undefined },
  body: string,
  nowMs = Date.now(),
): SignatureVerdict {
  const problem = timestampProblem(signed.timestamp, nowMs) ?? signatureFormatProblem(signed.signature);
  if (problem) return { ok: false, reason: problem };
  if (!signatureMatches(secret, sentSigningString(signed.timestamp!, body), signed.signature)) return { ok: false, reason: 'The signature does not match the body' };
  return { ok: true };
}

/** A new secret for an outgoing webhook, shown once when it is created. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
