import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/db/connection';
import { endpoint, notAllowed } from '@/lib/server/http/endpoint';
import { json } from '@/lib/server/http/route';
import { decideGate } from '@/lib/server/runs/run-control';

export const POST = endpoint(routes.approveGate, async ({ params, body, principal }) => {
  return json({ run_id: params.run_id, state: await decideGate(await getDatabase(), principal, params.run_id, params.task_id, 'approve', body.comment, body.input === undefined ? undefined : { input: body.input }) });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}/gates/{task_id}/approve');
