import { CreatePlanRequest } from '@/lib/api/schemas';
import { getDatabase } from '@/lib/server/db/connection';
import { readJson } from '@/lib/server/http/read-json';
import { json, route } from '@/lib/server/http/route';
import { createPlan, listPlanSummaries } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const { db } = await getDatabase();
  return json({ plans: await listPlanSummaries(db) });
});

export const POST = route(async (request) => {
  const body = await readJson(request, CreatePlanRequest);
  const { db } = await getDatabase();
  const created = await createPlan(db, body);
  return json(created, 201, { Location: `/api/plans/${created.id}` });
});
