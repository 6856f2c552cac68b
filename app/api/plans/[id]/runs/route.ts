import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { listPlanRuns } from '@/lib/server/runs/run-queries';
import { startRun } from '@/lib/server/runs/start-run';

/** Runs exactly the approved revision: 201 only while its approval is live. */
export const POST = endpoint(routes.startRun, async ({ params, body, principal }) => {
  return json(await startRun(await getDatabase(), principal, params.id, body), 201);
});

export const GET = endpoint(routes.listRuns, async ({ params, query }) => {
  const { db } = await getDatabase();
  return json(await listPlanRuns(db, params.id, query));
});

export const { PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/runs');
