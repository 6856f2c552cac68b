'use server';

import { z } from 'zod';
import { ApplyReplanRequest, ReplanRequest } from '@/lib/replan/replan-types';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { applyReplanProposal, proposeReplan } from '@/lib/server/replan/replan-service';

const ProposeInput = ReplanRequest.extend({ id: z.string().min(1) });
const ApplyInput = ApplyReplanRequest.extend({ id: z.string().min(1), proposal_id: z.string().min(1) });

/** Replacements for the selected tasks of the saved head revision, as a stored proposal with its per-task diff; the plan is not changed. */
export async function proposeReplanAction(input: z.input<typeof ProposeInput>) {
  return runAction('editor', ProposeInput, input, async ({ id, ...request }, principal) => {
    const { db } = await getDatabase();
    return proposeReplan(db, id, request, principal);
  });
}

/** Applies the accepted replacements as one new revision; the editor loads that revision as its new base. */
export async function applyReplanAction(input: z.input<typeof ApplyInput>) {
  return runAction('editor', ApplyInput, input, async ({ id, proposal_id, ...request }, principal) => {
    const { db } = await getDatabase();
    return applyReplanProposal(db, id, proposal_id, request, principal);
  });
}
