import 'server-only';
import { sql } from 'drizzle-orm';
import { PlanDocument } from '@/lib/plan';
import type { Database } from '../platform/db/client';
import { countPlans } from '../plans/plan-repository';
import { createPlan } from '../plans/plan-service';
import { DEMO_PLANS } from './demo-plans';

const SEED_LOCK_KEY = 7_316_003;

/**
 * Fills an empty database with the seeds' example plans so a newcomer sees real plans at
 * once. Runs under a transaction-scoped advisory lock: two instances starting together on
 * one PostgreSQL database seed once, not twice.
 */
export async function seedDemoPlans(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if ((await countPlans(tx)) > 0) return 0;
    // Oldest first, so the list (newest first) opens on the first seed's plan.
    for (const demo of [...DEMO_PLANS].reverse()) {
      const { plan, job } = PlanDocument.parse(demo.document);
      await createPlan(tx, { title: demo.title, plan, job, message: 'Demo plan from the seeds' }, 'plangate-demo');
    }
    return DEMO_PLANS.length;
  });
}

export function demoPlansEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PLANGATE_DEMO !== 'off';
}
