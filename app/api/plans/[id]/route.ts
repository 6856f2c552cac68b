import { SavePlanRequest } from '@/lib/api/schemas';
import { getDatabase } from '@/lib/server/db/connection';
import { parseBody, readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { getPlan, savePlan } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = authed('viewer', async (_request, { params }: Context) => {
  const { id } = await params;
  const { db } = await getDatabase();
  return json(await getPlan(db, id));
});

export const PUT = authed('editor', async (request, { params }: Context, principal) => {
  const { id } = await params;
  const value = await readJsonValue(request);
  const body = parseBody(SavePlanRequest, value);
  const { db } = await getDatabase();
  return json(await savePlan(db, id, body, principal.username, (value as { plan?: unknown }).plan));
});
