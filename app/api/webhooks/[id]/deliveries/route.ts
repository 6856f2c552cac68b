import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';
import { listDeliveries } from '@/lib/server/webhooks/webhook-service';

export const dynamic = 'force-dynamic';

/** The webhook's newest 100 deliveries, each with every attempt's status code or error. */
export const GET = authed('admin', async (_request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { db } = await getDatabase();
  return json({ deliveries: await listDeliveries(db, id) });
});
