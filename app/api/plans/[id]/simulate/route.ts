import { getDatabase } from '@/lib/server/db/connection';
import { readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { getPlan } from '@/lib/server/plans/plan-service';
import { latestDryRun, runDryRun } from '@/lib/server/simulate/dry-run-service';
import { notFound } from '@/lib/server/errors';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

/** A dry run of the head revision: { workers, limits?, fail_task_ids?, failure_probability?, runs?, seed? }. */
export const POST = authed('editor', async (request, { params }: Context, principal) => {
  const { id } = await params;
  const body = await readJsonValue(request);
  const { db } = await getDatabase();
  return json(await runDryRun(db, id, body, principal), 201);
});

/** The latest dry run of the head revision. */
export const GET = authed('viewer', async (_request, { params }: Context) => {
  const { id } = await params;
  const { db } = await getDatabase();
  const plan = await getPlan(db, id);
  const latest = await latestDryRun(db, id, plan.revision);
  if (!latest) throw notFound(`A dry run of revision ${plan.revision} of plan "${id}"`);
  return json(latest);
});
