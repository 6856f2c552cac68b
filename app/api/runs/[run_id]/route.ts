import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { getRun } from '@/lib/server/runs/run-queries';

export const GET = endpoint(routes.getRun, async ({ params }) => {
  const { db } = await getDatabase();
  return json(await getRun(db, params.run_id), 200, { 'Cache-Control': 'no-store' });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/runs/{run_id}');
