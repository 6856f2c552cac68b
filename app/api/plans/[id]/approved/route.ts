import { routes } from '@/lib/api/routes';
import { getApprovedPlan } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** The executors' hand-off: 200 only while the head revision carries its approvals. */
export const GET = endpoint(routes.getApprovedPlan, async ({ params }) => {
  const { db } = await getDatabase();
  return json(await getApprovedPlan(db, params.id), 200, { 'Cache-Control': 'no-store' });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/approved');
