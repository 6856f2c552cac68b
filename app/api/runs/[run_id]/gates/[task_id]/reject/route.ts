import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { relyingPartyOf } from '@/lib/server/passkeys/relying-party';
import { decideGate } from '@/lib/server/runs/run-control';

export const POST = endpoint(routes.rejectGate, async ({ params, body, principal, request }) => {
  const signing = body.signature ? { signature: body.signature, relyingParty: relyingPartyOf(request.headers) } : {};
  return json({ run_id: params.run_id, state: await decideGate(await getDatabase(), principal, params.run_id, params.task_id, 'reject', body.comment, undefined, signing) });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}/gates/{task_id}/reject');
