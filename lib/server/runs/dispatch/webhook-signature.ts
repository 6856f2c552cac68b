import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

// How Plangate signs what it sends to a webhook executor, and how it checks what an executor
// posts back (the result route): HMAC-SHA256 over `${timestamp}.${body}`, the timestamp in
// Unix seconds, so a captured request cannot be replayed after the clock-skew window.

export const TIMESTAMP_HEADER = 'X-Plangate-Timestamp';
export const SIGNATURE_HEADER = 'X-Plangate-Signature';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How far a signed timestamp may be from this server's clock, either way. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

const SIGNATURE_FORMAT = /^sha256=([0-9a-fA-F]{64})$/;

/** `sha256=<hex HMAC-SHA256 of "${timestamp}.${body}">` under `secret`. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** The timestamp and signature headers for sending `body` at `nowMs`. */
export function signedWebhookHeaders(secret: string, body: string, nowMs = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body) };
}

export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks a signed request: the signature must be `signWebhook(secret, timestamp, body)` for
 * the exact body bytes received, and the timestamp within MAX_CLOCK_SKEW_SECONDS of `nowMs`.
 * The comparison takes the same time whichever byte differs.
 */
export function verifyWebhook(
  secret: string,
  signed: { timestamp: string | null | undefined; signature: string | null | undefined },
  body: string,
  nowMs = Date.now(),
): WebhookVerdict {
  const { timestamp, signature } = signed;
  if (!timestamp || !signature) return { ok: false, reason: `${TIMESTAMP_HEADER} and ${SIGNATURE_HEADER} are required` };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: `${TIMESTAMP_HEADER} must be Unix seconds` };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    return { ok: false, reason: `${TIMESTAMP_HEADER} is more than ${MAX_CLOCK_SKEW_SECONDS / 60} minutes from the server's clock` };
  }
  const given = SIGNATURE_FORMAT.exec(signature);
  if (!given) return { ok: false, reason: `${SIGNATURE_HEADER} must be sha256=<64 hex digits>` };
  const expected = Buffer.from(signWebhook(secret, timestamp, body).slice('sha256='.length), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given[1], 'hex'))) return { ok: false, reason: 'The signature does not match the body' };
  return { ok: true };
}
