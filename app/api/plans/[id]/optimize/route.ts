import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { proposeSubgraphs } from '@/lib/server/optimize/optimize-service';

export const dynamic = 'force-dynamic';

/** A proposed SubGraph grouping of the head revision with its report (and, for strategy 'llm', the model's verdict); save it with PUT to apply. */
export const POST = endpoint(routes.optimizePlan, async ({ params, body }) => {
  const { db } = await getDatabase();
  return json(await proposeSubgraphs(db, params.id, body));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/optimize');
