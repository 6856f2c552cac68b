import { getDatabase } from '@/lib/server/db/connection';
import { authed, json, parseRevisionParam } from '@/lib/server/http/route';
import { getPlan } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export const GET = authed('viewer', async (_request, { params }: { params: Promise<{ id: string; rev: string }> }) => {
  const { id, rev } = await params;
  const revision = parseRevisionParam(rev);
  const { db } = await getDatabase();
  return json(await getPlan(db, id, revision));
});
