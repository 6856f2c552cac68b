'use server';

import { z } from 'zod';
import { CreateWebhookRequest, WebhookId } from '@/lib/api/webhook-schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { createWebhook, deleteWebhook } from '@/lib/server/webhooks/webhook-service';

// Webhook management from /admin/webhooks; the same services back POST /api/webhooks and
// DELETE /api/webhooks/{id}.

export async function createWebhookAction(input: z.input<typeof CreateWebhookRequest>) {
  return runAction('admin', CreateWebhookRequest, input, async (request, principal) => {
    const { db } = await getDatabase();
    return createWebhook(db, request, principal.username);
  });
}

const DeleteWebhookInput = z.strictObject({ id: WebhookId });

export async function deleteWebhookAction(input: z.input<typeof DeleteWebhookInput>) {
  return runAction('admin', DeleteWebhookInput, input, async ({ id }, principal) => {
    const { db } = await getDatabase();
    await deleteWebhook(db, id, principal.username);
    return { id };
  });
}
