import 'server-only';
import type { WebhookAttempt } from '../platform/db/schema';
import { guardedFetch, guardRefusal } from '../runs/dispatch/address-guard';
import { signedHeaders } from './signature';

// One attempt at one delivery: a signed POST of the delivery's exact body. It never throws:
// whatever happens becomes the attempt's entry in the delivery log.

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface OutgoingDelivery {
  id: string;
  event: string;
  body: string;
  url: string;
  secret: string;
}

export interface SendOutcome {
  entry: WebhookAttempt;
  /** The address guard refused the URL: no later attempt can do better, so it is given up at once. */
  refused: boolean;
}

/** Sends attempt `attempt` of `delivery`; `abort` cuts it short (pg-boss took the attempt back). */
export async function sendDelivery(delivery: OutgoingDelivery, attempt: number, abort?: AbortSignal): Promise<SendOutcome> {
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let refused = false;
  try {
    // The URL is configured in the app, not by the operator: it goes through the address guard.
    const response = await guardedFetch(delivery.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Plangate-Webhooks/1',
        'X-Plangate-Event': delivery.event,
        'X-Plangate-Delivery': delivery.id,
        ...signedHeaders(delivery.secret, delivery.body, started),
      },
      body: delivery.body,
      redirect: 'manual',
      signal: abort ? AbortSignal.any([AbortSignal.timeout(WEBHOOK_TIMEOUT_MS), abort]) : AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    statusCode = response.status;
    await response.body?.cancel().catch(() => undefined);
    if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
  } catch (caught) {
    refused = guardRefusal(caught) !== null;
    error = describe(caught);
  }
  return { entry: { attempt, at: new Date(started).toISOString(), status_code: statusCode, error, duration_ms: Date.now() - started }, refused };
}

function describe(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `Timed out after ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  const refusal = guardRefusal(error);
  if (refusal) return `Refused: ${refusal.message}`.slice(0, 500);
  // The socket's own words (refused, reset, closed) would map which ports are open.
  return 'Could not reach the webhook URL';
}
