'use server';

import { z } from 'zod';
import { PatchPlanRequest, RevisionNumber, SavePlanRequest } from '@/lib/api/schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { getGate } from '@/lib/server/approval/approval-service';
import { getPlan, getRevisions, patchPlan, savePlan } from '@/lib/server/plans/plan-service';
import { loadApprovalGuard } from './approval-guard';

// A save sends what changed (PATCH's body) when the editor can say so, else the whole plan.
const SaveInput = z.strictObject({
  id: z.string().min(1),
  request: z.union([z.strictObject({ whole: SavePlanRequest }), z.strictObject({ change: PatchPlanRequest })]),
});

export async function savePlanAction(input: z.input<typeof SaveInput>) {
  return runAction('editor', SaveInput, input, async ({ id, request }, principal) => {
    const { db } = await getDatabase();
    const saved = 'whole' in request ? await savePlan(db, id, request.whole, principal.username) : await patchPlan(db, id, request.change, principal.username);
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
