import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { listDeliveries } from '@/lib/server/webhooks/webhook-service';

export const dynamic = 'force-dynamic';

/** The webhook's newest 100 deliveries, each with every attempt's status code or error. */
export const GET = endpoint(routes.listWebhookDeliveries, async ({ params }) => {
  const { db } = await getDatabase();
  return json({ deliveries: await listDeliveries(db, params.id) });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/webhooks/{id}/deliveries');
