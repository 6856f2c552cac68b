import { getDatabase } from '@/lib/server/db/connection';
import { readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { applyReplanProposal } from '@/lib/server/replan/replan-service';

export const dynamic = 'force-dynamic';

/** Applies the accepted replacements of a proposal as a new revision (back to draft, approvals void). */
export const POST = authed('editor', async (request, { params }: { params: Promise<{ id: string; proposalId: string }> }, principal) => {
  const { id, proposalId } = await params;
  const body = await readJsonValue(request);
  const { db } = await getDatabase();
  return json(await applyReplanProposal(db, id, proposalId, body, principal));
});
