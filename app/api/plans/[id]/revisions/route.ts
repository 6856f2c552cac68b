import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';
import { getRevisions } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const GET = authed('viewer', async (_request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { db } = await getDatabase();
  return json({ revisions: await getRevisions(db, id) });
});
