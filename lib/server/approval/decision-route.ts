import { DecisionRequest } from '@/lib/api/gate-schemas';
import type { Decision } from '@/lib/approval/gate';
import { getDatabase } from '../db/connection';
import { readJson } from '../http/read-json';
import { authed, json } from '../http/route';
import { decide } from './approval-service';

/** POST /api/plans/{id}/approve | request-changes | reject: one handler, three decisions. */
export function decisionRoute(decision: Decision) {
  return authed('approver', async (request, { params }: { params: Promise<{ id: string }> }, principal) => {
    const { id } = await params;
    const body = await readJson(request, DecisionRequest);
    const { db } = await getDatabase();
    return json(await decide(db, id, decision, body, principal));
  });
}
