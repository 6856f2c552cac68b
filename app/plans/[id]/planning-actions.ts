'use server';

import { z } from 'zod';
import { PlannerTask } from '@/lib/plan';
import { BACKEND_IDS } from '@/lib/planning/planning-types';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { computeStage2 } from '@/lib/server/planning/planning-service';

const Stage2Input = z.strictObject({
  task: PlannerTask,
  input_data: z.record(z.string(), z.unknown()).default({}),
  backend: z.enum(BACKEND_IDS).optional(),
});

/** Stage 2 for the task as the editor holds it; the editor applies the answer as an edit and saves it. */
export async function computeStage2Action(input: z.input<typeof Stage2Input>) {
  return runAction('editor', Stage2Input, input, async ({ task, input_data, backend }) => {
    const { db } = await getDatabase();
    return computeStage2(db, task, input_data, backend);
  });
}
