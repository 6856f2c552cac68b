import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/db/connection';
import { endpoint, notAllowed } from '@/lib/server/http/endpoint';
import { readJsonText } from '@/lib/server/http/read-json';
import { json } from '@/lib/server/http/route';
import { acceptSignedResult } from '@/lib/server/runs/task-result';

/** No session: the executor proves itself with the signature of the webhook it was sent. */
export const POST = endpoint(routes.reportTaskResult, async ({ params, request }) => {
  const text = await readJsonText(request, 'result');
  return json({ run_id: params.run_id, state: await acceptSignedResult(await getDatabase(), params.run_id, params.task_id, request.headers, text) });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}/tasks/{task_id}/result');
