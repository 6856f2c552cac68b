import { getDatabase } from '@/lib/server/db/connection';
import { readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { proposeReplan } from '@/lib/server/replan/replan-service';

export const dynamic = 'force-dynamic';

/** Replacements for the named (or mark_replan) tasks of the head revision, stored as a proposal with its diff; nothing in the plan changes yet. */
export const POST = authed('editor', async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { id } = await params;
  const body = await readJsonValue(request);
  const { db } = await getDatabase();
  return json(await proposeReplan(db, id, body, principal), 201);
});
