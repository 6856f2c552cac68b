import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { runEventStream } from '@/lib/server/runs/run-event-stream';

export const GET = endpoint(routes.getRunEvents, async ({ params, query, request }) => {
  const lastEventId = Number(request.headers.get('last-event-id'));
  const after = query.after ?? (Number.isInteger(lastEventId) && lastEventId > 0 ? lastEventId : 0);
  return runEventStream(await getDatabase(), params.run_id, after, request.signal);
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}/events');
