import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { acceptSignedResult } from '@/lib/server/runs/task-result';

/**
 * No session: the executor proves itself with a signature over the method, this path, the
 * attempt, the timestamp and the body, keyed with the secret of the webhook it was sent.
 * The service reads the body itself (capped), after the signature headers are checked.
 */
export const POST = endpoint(routes.reportTaskResult, async ({ params, request }) => {
  return json({ run_id: params.run_id, state: await acceptSignedResult(await getDatabase(), params.run_id, params.task_id, request) });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}/tasks/{task_id}/result');
