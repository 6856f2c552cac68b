import { routes } from '@/lib/api/routes';
import { getGate } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.getReviews, async ({ params }) => {
  const { db } = await getDatabase();
  return json(await getGate(db, params.id));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/reviews');
