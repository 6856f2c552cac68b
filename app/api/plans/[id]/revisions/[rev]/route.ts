import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { etagged, planEtag } from '@/lib/server/platform/http/etag';
import { parseRevisionParam } from '@/lib/server/platform/http/route';
import { getPlanJson } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.getRevision, async ({ params, request }) => {
  const revision = parseRevisionParam(params.rev);
  const { db } = await getDatabase();
  const { plan, json } = await getPlanJson(db, params.id, revision);
  return etagged(request, json, planEtag(plan));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/revisions/{rev}');
