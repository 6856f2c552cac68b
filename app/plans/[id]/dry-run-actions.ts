'use server';

import { z } from 'zod';
import { DryRunOptions } from '@/lib/simulate/dry-run';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { runDryRun } from '@/lib/server/simulate/dry-run-service';

const Input = z.strictObject({ id: z.string().min(1), options: DryRunOptions });

/** A dry run of the head revision, stored for the review. */
export async function runDryRunAction(input: z.input<typeof Input>) {
  return runAction('editor', Input, input, async ({ id, options }, principal) => {
    const { db } = await getDatabase();
    return runDryRun(db, id, options, principal);
  });
}
