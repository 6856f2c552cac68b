import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { getReplanProposal } from '@/lib/server/replan/replan-service';

export const dynamic = 'force-dynamic';

/** A stored replan proposal with its diff against the revision it was made for. */
export const GET = endpoint(routes.getReplanProposal, async ({ params }) => {
  const { db } = await getDatabase();
  return json(await getReplanProposal(db, params.id, params.proposalId));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/replan/{proposalId}');
