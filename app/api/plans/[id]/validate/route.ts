import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { validateStoredPlan } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const POST = endpoint(routes.validatePlan, async ({ params }) => {
  const { db } = await getDatabase();
  return json(await validateStoredPlan(db, params.id));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/validate');
