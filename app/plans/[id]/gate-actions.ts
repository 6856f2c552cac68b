'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { ContentHash, DecisionRequest, SubmitRequest } from '@/lib/api/gate-schemas';
import { RevisionNumber } from '@/lib/api/schemas';
import { DECISIONS } from '@/lib/approval/gate';
import { runAction } from '@/lib/server/platform/action';
import { decide, reRequestReview, submitForReview } from '@/lib/server/approval/approval-service';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { signingOptions } from '@/lib/server/passkeys/decision-signatures';
import { relyingPartyOf } from '@/lib/server/passkeys/relying-party';

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
    return decide(db, id, decision, request, principal, request.signature ? relyingPartyOf(await headers()) : undefined);
  });
}

const SignInput = z.strictObject({ id: z.string().min(1).max(200), decision: z.enum(DECISIONS), revision: RevisionNumber, content_hash: ContentHash, resources_hash: ContentHash });

/** Starts signing a decision with a passkey: the decision on the revision, content and resources on screen, and the WebAuthn options over it. */
export async function decisionSigningOptionsAction(input: z.input<typeof SignInput>) {
  return runAction('approver', SignInput, input, async ({ id, decision, revision, content_hash, resources_hash }, principal) => {
    const { db } = await getDatabase();
    return signingOptions(db, principal, relyingPartyOf(await headers()), { plan_id: id, revision, content_hash, resources_hash, decision });
  });
}

const ReRequestInput = z.strictObject({ id: z.string().min(1), claim: z.strictObject({ revision: RevisionNumber, content_hash: ContentHash }) });

export async function reRequestReviewAction(input: z.input<typeof ReRequestInput>) {
  return runAction('editor', ReRequestInput, input, async ({ id, claim }, principal) => {
    const { db } = await getDatabase();
    return reRequestReview(db, id, claim, principal);
  });
}
