import { routes } from '@/lib/api/routes';
import { reviewQueuePage } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** The review queue: plans waiting for an approver, oldest first, a page at a time. */
export const GET = endpoint(routes.reviewQueue, async ({ query }) => {
  const { db } = await getDatabase();
  return json(await reviewQueuePage(db, query));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/reviews');
