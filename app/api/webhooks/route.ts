import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { createWebhook, listWebhooks } from '@/lib/server/webhooks/webhook-service';

export const dynamic = 'force-dynamic';

/** The configured webhooks, newest first; secrets are never listed. */
export const GET = endpoint(routes.listWebhooks, async () => {
  const { db } = await getDatabase();
  return json({ webhooks: await listWebhooks(db) });
});

/** A new webhook; the answer carries its signing secret, the only time it is shown. */
export const POST = endpoint(routes.createWebhook, async ({ body, principal }) => {
  const { db } = await getDatabase();
  const created = await createWebhook(db, body, principal.username);
  return json(created, 201, { Location: `/api/webhooks/${created.id}`, 'Cache-Control': 'no-store' });
});

export const { PUT, PATCH, DELETE } = notAllowed('/api/webhooks');
