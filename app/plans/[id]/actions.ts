'use server';

import { z } from 'zod';
import { RevisionNumber, SavePlanRequest } from '@/lib/api/schemas';
import { runAction } from '@/lib/server/action';
import { getDatabase } from '@/lib/server/db/connection';
import { getGate } from '@/lib/server/approval/approval-service';
import { getPlan, getRevisions, savePlan } from '@/lib/server/plans/plan-service';
import { loadApprovalGuard } from './approval-guard';

const SaveInput = z.strictObject({ id: z.string().min(1), request: SavePlanRequest });

export async function savePlanAction(input: z.input<typeof SaveInput>) {
  return runAction('editor', SaveInput, input, async ({ id, request }, principal) => {
    const { db } = await getDatabase();
    const saved = await savePlan(db, id, request, principal.username);
    // What the editor page shows about the head after this save (the header's status, the
    // approval banner), so the client updates them in place instead of re-rendering the page.
    const [{ status }, approval] = await Promise.all([getGate(db, id), loadApprovalGuard(db, id)]);
    return { ...saved, status, approval };
  });
}

const PlanRef = z.strictObject({ id: z.string().min(1), revision: RevisionNumber.optional() });

export async function loadPlanAction(input: z.input<typeof PlanRef>) {
  return runAction('viewer', PlanRef, input, async ({ id, revision }) => {
    const { db } = await getDatabase();
    return getPlan(db, id, revision);
  });
}

export async function listRevisionsAction(input: { id: string }) {
  return runAction('viewer', z.strictObject({ id: z.string().min(1) }), input, async ({ id }) => {
    const { db } = await getDatabase();
    return getRevisions(db, id);
  });
}
