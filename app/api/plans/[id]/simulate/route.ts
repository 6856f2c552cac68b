import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { notFound } from '@/lib/server/platform/errors';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { jsonText } from '@/lib/server/platform/http/route';
import { getPlanSkeleton } from '@/lib/server/plans/plan-service';
import { dryRunJson, findLatestDryRunPages, storeDryRun } from '@/lib/server/simulate/dry-run-service';

export const dynamic = 'force-dynamic';

// Both answers are written from the stored pages of tasks as text (dryRunJson), not from a
// parsed object: writing 20,000 tasks as JSON here held the event loop.

/** A dry run of the head revision: { workers, limits?, fail_task_ids?, failure_probability?, runs?, seed? }. */
export const POST = endpoint(routes.runDryRun, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return jsonText(dryRunJson(await storeDryRun(db, params.id, body, principal)), 201);
});

/** The latest dry run of the head revision. */
export const GET = endpoint(routes.getLatestDryRun, async ({ params }) => {
  const { db } = await getDatabase();
  // Its head revision only: the tasks are not read.
  const { plan } = await getPlanSkeleton(db, params.id);
  const latest = await findLatestDryRunPages(db, params.id, plan.revision);
  if (!latest) throw notFound(`A dry run of revision ${plan.revision} of plan "${params.id}"`);
  return jsonText(dryRunJson(latest));
});

export const { PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/simulate');
