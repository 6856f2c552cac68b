'use server';

import { z } from 'zod';
import { DecisionRequest, SubmitRequest } from '@/lib/api/gate-schemas';
import { DECISIONS } from '@/lib/approval/gate';
import { runAction } from '@/lib/server/action';
import { decide, submitForReview } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/db/connection';

const SubmitInput = z.strictObject({ id: z.string().min(1), claim: SubmitRequest });

export async function submitForReviewAction(input: z.input<typeof SubmitInput>) {
  return runAction('editor', SubmitInput, input, async ({ id, claim }, principal) => {
    const { db } = await getDatabase();
    return submitForReview(db, id, claim, principal);
  });
}

const DecideInput = z.strictObject({ id: z.string().min(1), decision: z.enum(DECISIONS), request: DecisionRequest });

export async function decideAction(input: z.input<typeof DecideInput>) {
  return runAction('approver', DecideInput, input, async ({ id, decision, request }, principal) => {
    const { db } = await getDatabase();
    return decide(db, id, decision, request, principal);
  });
}
