import 'server-only';
import type { Routes } from '@/lib/api/routes';
import type { Decision } from '@/lib/approval/gate';
import { getDatabase } from '../platform/db/connection';
import { endpoint } from '../platform/http/endpoint';
import { json } from '../platform/http/route';
import { relyingPartyOf } from '../passkeys/relying-party';
import { decide } from './approval-service';

/** POST /api/plans/{id}/approve | request-changes | reject: one handler, three decisions. */
export function decisionRoute(spec: Routes['approvePlan' | 'requestChanges' | 'rejectPlan'], decision: Decision) {
  return endpoint(spec, async ({ params, body, principal, request }) => {
    const { db } = await getDatabase();
    return json(await decide(db, params.id, decision, body, principal, body.signature ? relyingPartyOf(request.headers) : undefined));
  });
}
