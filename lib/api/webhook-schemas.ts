import { z } from 'zod';

// Outgoing webhooks: what an admin configures and what the delivery log shows.

export const WEBHOOK_EVENTS = [
  'plan.submitted',
  'plan.approved',
  'plan.changes_requested',
  'plan.rejected',
  'approval.stale',
  'comment.created',
  'run.awaiting_approval',
  'run.needs_replan',
  'run.succeeded',
  'run.failed',
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** Why a URL cannot be a webhook target, or null: http(s) only, no credentials in it. */
export function webhookUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs can receive webhooks';
  if (url.username || url.password) return 'A webhook URL must not carry credentials; the receiver checks the signature instead';
  return null;
}

export const WebhookUrl = z
  .string()
  .trim()
  .min(1, 'A URL is required')
  .max(2000, 'URLs are at most 2,000 characters')
  .superRefine((text, ctx) => {
    const problem = webhookUrlProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const CreateWebhookRequest = z.strictObject({
  url: WebhookUrl,
  events: z
    .array(WebhookEvent)
    .min(1, 'Choose at least one event')
    .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event))),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const WebhookId = z.string().regex(/^wh_[A-Za-z0-9_-]{1,64}$/, 'A webhook id is "wh_" and up to 64 letters, digits, "-" or "_"');

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEvent),
  created_by: z.string(),
  created_at: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

/** The answer to creating a webhook: the only time its secret is shown. */
export const CreatedWebhook = Webhook.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookListResponse = z.object({ webhooks: z.array(Webhook) });

export const WebhookAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
});

export const WebhookDelivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event: WebhookEvent,
  plan_id: z.string().nullable(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  attempt_log: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesResponse = z.object({ deliveries: z.array(WebhookDelivery) });

/** The JSON body every delivery sends. */
export const WebhookPayload = z.object({
  id: z.string(),
  event: WebhookEvent,
  at: z.string(),
  plan: z.object({ id: z.string(), title: z.string(), revision: z.number().int(), content_hash: z.string(), status: z.string() }).nullable(),
  actor: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
