import { routes } from '@/lib/api/routes';
import { planAuditPage } from '@/lib/server/audit/plan-audit-page';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** A plan's audit events, oldest first, a page at a time. */
export const GET = endpoint(routes.getAudit, async ({ params, query }) => {
  const { db } = await getDatabase();
  return json(await planAuditPage(db, params.id, query));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/audit');
