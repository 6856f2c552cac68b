import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { importPlanText } from '@/lib/server/plans/plan-interop';

export const dynamic = 'force-dynamic';

export const POST = endpoint(routes.importPlan, async ({ body, principal }) => {
  const { db } = await getDatabase();
  const imported = await importPlanText(db, body, principal.username);
  return json(imported, 201, { Location: `/api/plans/${imported.id}` });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/import');
