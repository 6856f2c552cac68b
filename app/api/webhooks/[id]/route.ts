import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { deleteWebhook } from '@/lib/server/webhooks/webhook-service';

export const dynamic = 'force-dynamic';

/** Deletes a webhook with its delivery log; pending deliveries are not sent. */
export const DELETE = endpoint(routes.deleteWebhook, async ({ params, principal }) => {
  const { db } = await getDatabase();
  await deleteWebhook(db, params.id, principal.username);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed('/api/webhooks/{id}');
