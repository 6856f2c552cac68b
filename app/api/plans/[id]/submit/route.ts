import { SubmitRequest } from '@/lib/api/gate-schemas';
import { submitForReview } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/db/connection';
import { readOptionalJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const POST = authed('editor', async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
  const { id } = await params;
  const claim = await readOptionalJson(request, SubmitRequest);
  const { db } = await getDatabase();
  return json(await submitForReview(db, id, claim, principal));
});
