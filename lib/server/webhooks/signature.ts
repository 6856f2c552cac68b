import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// X-Plangate-Signature: "sha256=" + hex HMAC-SHA256, keyed with the webhook's secret, of
// "<X-Plangate-Timestamp>.<raw body>". The timestamp (Unix seconds) is signed so a
// receiver can refuse old replays; the body is signed byte for byte as sent.

export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifyWebhookSignature(secret: string, timestamp: string, body: string, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
