import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { createPlanFromText, listPlans } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

/** One page of plans: `status`, `author`, `q`, `sort`, `order`, `limit`, `cursor` (see PlanListQuery). */
export const GET = endpoint(routes.listPlans, async ({ query }) => {
  const { db } = await getDatabase();
  return json(await listPlans(db, query));
});

// The body (up to 10 MB of plan) is parsed and completed in a compute worker.
export const POST = endpoint(routes.createPlan, async ({ bodyText, principal }) => {
  const { db } = await getDatabase();
  const created = await createPlanFromText(db, bodyText, principal.username);
  return json(created, 201, { Location: `/api/plans/${created.id}` });
});

export const { PUT, PATCH, DELETE } = notAllowed('/api/plans');
