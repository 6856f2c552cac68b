import { CreateWebhookRequest } from '@/lib/api/webhook-schemas';
import { getDatabase } from '@/lib/server/db/connection';
import { readJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { createWebhook, listWebhooks } from '@/lib/server/webhooks/webhook-service';

export const dynamic = 'force-dynamic';

/** The configured webhooks, newest first; secrets are never listed. */
export const GET = authed('admin', async () => {
  const { db } = await getDatabase();
  return json({ webhooks: await listWebhooks(db) });
});

/** A new webhook; the answer carries its signing secret, the only time it is shown. */
export const POST = authed('admin', async (request, _context, principal) => {
  const body = await readJson(request, CreateWebhookRequest);
  const { db } = await getDatabase();
  const created = await createWebhook(db, body, principal.username);
  return json(created, 201, { Location: `/api/webhooks/${created.id}`, 'Cache-Control': 'no-store' });
});
