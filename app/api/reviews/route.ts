import { reviewQueue } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/db/connection';
import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

/** The review queue: plans waiting for an approver, oldest first. */
export const GET = authed('viewer', async () => {
  const { db } = await getDatabase();
  const plans = await reviewQueue(db);
  return json({ plans: plans.map((plan) => ({ ...plan, updated_at: plan.updated_at.toISOString() })) });
});
