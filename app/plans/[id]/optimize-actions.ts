'use server';

import { z } from 'zod';
import { PLAN_LIMITS, PlannerTask } from '@/lib/plan';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { OptimizeRequest, proposeGrouping } from '@/lib/server/optimize/optimize-service';

const GroupingInput = OptimizeRequest.extend({
  tasks: z.array(PlannerTask).max(PLAN_LIMITS.maxTasks),
});

/** A proposed grouping of the tasks as the editor holds them (unsaved edits included); the editor applies it as an edit and saves it. */
export async function proposeGroupingAction(input: z.input<typeof GroupingInput>) {
  return runAction('editor', GroupingInput, input, async ({ tasks, ...request }) => {
    const { db } = await getDatabase();
    return proposeGrouping(db, tasks, request);
  });
}
