import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { etagged, planEtag } from '@/lib/server/platform/http/etag';
import { json } from '@/lib/server/platform/http/route';
import { getPlanJson, patchPlan, savePlan } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.getPlan, async ({ params, request }) => {
  const { db } = await getDatabase();
  const { plan, json } = await getPlanJson(db, params.id);
  return etagged(request, json, planEtag(plan));
});

export const PUT = endpoint(routes.savePlan, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await savePlan(db, params.id, body, principal.username));
});

export const PATCH = endpoint(routes.patchPlan, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await patchPlan(db, params.id, body, principal.username));
});

export const { POST, DELETE } = notAllowed('/api/plans/{id}');
