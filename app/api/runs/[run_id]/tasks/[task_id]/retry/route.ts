import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { retryTask } from '@/lib/server/runs/run-control';

export const POST = endpoint(routes.retryRunTask, async ({ params, principal }) => {
  return json({ run_id: params.run_id, state: await retryTask(await getDatabase(), principal, params.run_id, params.task_id) });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}/tasks/{task_id}/retry');
