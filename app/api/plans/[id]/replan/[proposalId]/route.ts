import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';
import { getReplanProposal } from '@/lib/server/replan/replan-service';

export const dynamic = 'force-dynamic';

/** A stored replan proposal with its diff against the revision it was made for. */
export const GET = authed('viewer', async (_request, { params }: { params: Promise<{ id: string; proposalId: string }> }) => {
  const { id, proposalId } = await params;
  const { db } = await getDatabase();
  return json(await getReplanProposal(db, id, proposalId));
});
