'use server';

import { ImportRequest } from '@/lib/api/schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { importPlanText } from '@/lib/server/plans/plan-interop';

export async function importPlanAction(input: unknown) {
  return runAction('editor', ImportRequest, input, async (request, principal) => {
    const { db } = await getDatabase();
    return importPlanText(db, request, principal.username);
  });
}
