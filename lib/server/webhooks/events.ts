import 'server-only';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { WebhookEvent, WebhookPayload } from '@/lib/api/webhook-schemas';
import type { Database } from '../platform/db/client';
import { plans, webhookDeliveries, webhooks } from '../platform/db/schema';
import { enqueueDeliveries } from './webhook-queue';

// Emitting an event only writes rows: one pending delivery per subscribed webhook, and its
// job, in the caller's transaction, so a delivery exists and is sent if and only if the
// action that caused it committed. Sending happens after commit, in the webhook worker;
// nothing here can fail or slow the action beyond those inserts.

export interface EmitInput {
  event: WebhookEvent;
  planId: string;
  actor: string;
  detail?: Record<string, unknown>;
}

/** Records the event's deliveries in `tx`; call after the plan row holds its new state. */
export async function emitWebhookEvent(tx: Database, input: EmitInput): Promise<number> {
  const subscribed = (await tx.select({ id: webhooks.id, events: webhooks.events }).from(webhooks)).filter((hook) => hook.events.includes(input.event));
  if (!subscribed.length) return 0;
  const [plan] = await tx.select().from(plans).where(eq(plans.id, input.planId));
  const payload: WebhookPayload = {
    id: randomUUID(),
    event: input.event,
    at: new Date().toISOString(),
    plan: plan ? { id: plan.id, title: plan.title, revision: plan.headRevision, content_hash: plan.headContentHash, status: plan.status } : null,
    actor: input.actor,
    detail: input.detail ?? {},
  };
  const body = JSON.stringify(payload);
  // The delivery's id is its job's id (pg-boss wants a UUID), and its X-Plangate-Delivery.
  const deliveries = subscribed.map((hook) => ({ id: randomUUID(), webhookId: hook.id, eventId: payload.id, event: input.event, planId: input.planId, body }));
  await tx.insert(webhookDeliveries).values(deliveries);
  await enqueueDeliveries(
    tx,
    deliveries.map((delivery) => delivery.id),
  );
  return subscribed.length;
}
