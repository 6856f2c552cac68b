import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { applyReplanProposal } from '@/lib/server/replan/replan-service';

export const dynamic = 'force-dynamic';

/** Applies the accepted replacements of a proposal as a new revision (back to draft, approvals void). */
export const POST = endpoint(routes.applyReplanProposal, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await applyReplanProposal(db, params.id, params.proposalId, body, principal));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/replan/{proposalId}/apply');
