import { getApprovedPlan } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/** The executors' hand-off: 200 only while the head revision carries its approvals. */
export const GET = authed('viewer', async (_request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { db } = await getDatabase();
  return json(await getApprovedPlan(db, id), 200, { 'Cache-Control': 'no-store' });
});
