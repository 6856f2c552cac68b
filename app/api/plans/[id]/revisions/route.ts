import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { getRevisionPage } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

/** A plan's revisions, oldest first, a page at a time. */
export const GET = endpoint(routes.listRevisions, async ({ params, query }) => {
  const { db } = await getDatabase();
  return json(await getRevisionPage(db, params.id, query));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/revisions');
