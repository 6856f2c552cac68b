import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import {
  WebhookId,
  type CreateWebhookRequest,
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@/lib/api/webhook-schemas';
import { appendAudit } from '../audit/audit-log';
import type { Database } from '../platform/db/client';
import { webhookDeliveries, webhooks } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { newWebhookSecret } from './signature';
import { isSealed, sealWebhookSecret } from './webhook-secret-box';

// Admin configuration of outgoing webhooks and their delivery log. Routes and actions
// check the admin role before calling these.

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

function toWebhook(row: WebhookRow): Webhook {
  return { id: row.id, url: row.url, events: row.events as WebhookEvent[], created_by: row.createdBy, created_at: row.createdAt.toISOString() };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.eventId,
    event: row.event as WebhookEvent,
    plan_id: row.planId,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    attempt_log: row.attemptLog,
  };
}

function checkWebhookId(id: string): void {
  if (!WebhookId.safeParse(id).success) throw notFound(`Webhook "${id}"`);
}

export async function listWebhooks(db: Database): Promise<Webhook[]> {
  return (await db.select().from(webhooks).orderBy(desc(webhooks.createdAt), desc(webhooks.id))).map(toWebhook);
}

/** Stores a webhook with a new secret; the answer is the only place the secret is shown. */
export async function createWebhook(db: Database, request: CreateWebhookRequest, actor: string): Promise<CreatedWebhook> {
  const secret = newWebhookSecret();
  const id = `wh_${randomBytes(12).toString('base64url')}`;
  // Audited: a webhook receives every approval it subscribes to, so who added it matters.
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhooks)
      .values({ id, url: request.url, events: request.events, secret: sealWebhookSecret(secret, id), createdBy: actor })
      .returning();
    if (!inserted) throw new AppError('internal', 500, 'The webhook was not stored');
    await appendAudit(tx, { kind: 'webhook_created', actor, detail: { webhook_id: inserted.id, url: inserted.url, events: inserted.events } });
    return inserted;
  });
  return { ...toWebhook(row), secret };
}

/** Seals the secrets of webhooks stored before secrets were sealed at rest (at every start; usually none). */
export async function sealStoredWebhookSecrets(db: Database): Promise<number> {
  const plain = (await db.select({ id: webhooks.id, secret: webhooks.secret }).from(webhooks)).filter((row) => !isSealed(row.secret));
  for (const row of plain) {
    await db.update(webhooks).set({ secret: sealWebhookSecret(row.secret, row.id) }).where(and(eq(webhooks.id, row.id), eq(webhooks.secret, row.secret)));
  }
  return plain.length;
}

/** Deletes a webhook and its delivery log; pending deliveries are never sent. */
export async function deleteWebhook(db: Database, id: string, actor: string): Promise<void> {
  checkWebhookId(id);
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id, url: webhooks.url });
    if (!row) throw notFound(`Webhook "${id}"`);
    await appendAudit(tx, { kind: 'webhook_deleted', actor, detail: { webhook_id: row.id, url: row.url } });
  });
}

/** The newest deliveries of one webhook, with every attempt. */
export async function listDeliveries(db: Database, id: string, limit = 100): Promise<WebhookDelivery[]> {
  checkWebhookId(id);
  const [hook] = await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, id));
  if (!hook) throw notFound(`Webhook "${id}"`);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map(toDelivery);
}
