import { CreatePlanRequest } from '@/lib/api/schemas';
import { getDatabase } from '@/lib/server/db/connection';
import { readJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { createPlan, listPlanSummaries } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const GET = authed('viewer', async () => {
  const { db } = await getDatabase();
  return json({ plans: await listPlanSummaries(db) });
});

export const POST = authed('editor', async (request, _context, principal) => {
  const body = await readJson(request, CreatePlanRequest);
  const { db } = await getDatabase();
  const created = await createPlan(db, body, principal.username);
  return json(created, 201, { Location: `/api/plans/${created.id}` });
});
