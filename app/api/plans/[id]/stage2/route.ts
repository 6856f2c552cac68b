import { getDatabase } from '@/lib/server/db/connection';
import { readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { runStage2 } from '@/lib/server/planning/planning-service';

export const dynamic = 'force-dynamic';

/** Stage 2 for the named tasks; the results are stored on them as a new revision. */
export const POST = authed('editor', async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { id } = await params;
  const body = await readJsonValue(request);
  const { db } = await getDatabase();
  return json(await runStage2(db, id, body, principal));
});
