import { getDatabase } from '@/lib/server/db/connection';
import { authed } from '@/lib/server/http/route';
import { deleteWebhook } from '@/lib/server/webhooks/webhook-service';

export const dynamic = 'force-dynamic';

/** Deletes a webhook with its delivery log; pending deliveries are not sent. */
export const DELETE = authed('admin', async (_request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { id } = await params;
  const { db } = await getDatabase();
  await deleteWebhook(db, id, principal.username);
  return new Response(null, { status: 204 });
});
