import { getDatabase } from '@/lib/server/db/connection';
import { readOptionalJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { OptimizeRequest, proposeSubgraphs } from '@/lib/server/optimize/optimize-service';

export const dynamic = 'force-dynamic';

/** A proposed SubGraph grouping of the head revision with its report (and, for strategy 'llm', the model's verdict); save it with PUT to apply. */
export const POST = authed('editor', async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = await readOptionalJson(request, OptimizeRequest.partial());
  const { db } = await getDatabase();
  return json(await proposeSubgraphs(db, id, body));
});
