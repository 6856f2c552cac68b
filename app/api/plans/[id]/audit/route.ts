import { planAudit } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = authed('viewer', async (_request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { db } = await getDatabase();
  return json({ events: await planAudit(db, id) });
});
