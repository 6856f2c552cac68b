import { routes } from '@/lib/api/routes';
import { submitForReview } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

export const POST = endpoint(routes.submitPlan, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await submitForReview(db, params.id, body, principal));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/submit');
