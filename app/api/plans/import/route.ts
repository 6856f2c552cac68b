import { ImportRequest } from '@/lib/api/schemas';
import { getDatabase } from '@/lib/server/db/connection';
import { readJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { importPlanText } from '@/lib/server/plans/plan-interop';

export const dynamic = 'force-dynamic';

export const POST = authed('editor', async (request, _context, principal) => {
  const body = await readJson(request, ImportRequest);
  const { db } = await getDatabase();
  const imported = await importPlanText(db, body, principal.username);
  return json(imported, 201, { Location: `/api/plans/${imported.id}` });
});
