import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { runStage2 } from '@/lib/server/planning/planning-service';

export const dynamic = 'force-dynamic';

/** Stage 2 for the named tasks; the results are stored on them as a new revision. */
export const POST = endpoint(routes.runStage2, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await runStage2(db, params.id, body, principal));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/stage2');
