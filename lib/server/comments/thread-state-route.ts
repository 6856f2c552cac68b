import 'server-only';
import type { Routes } from '@/lib/api/routes';
import { getDatabase } from '../platform/db/connection';
import { endpoint } from '../platform/http/endpoint';
import { json } from '../platform/http/route';
import { setThreadResolved } from './comment-service';

/** POST /api/plans/{id}/comments/{commentId}/resolve | reopen: one handler, both directions. */
export function threadStateRoute(spec: Routes['resolveThread' | 'reopenThread'], resolved: boolean) {
  return endpoint(spec, async ({ params, principal }) => {
    const { db } = await getDatabase();
    return json(await setThreadResolved(db, params.id, params.commentId, resolved, principal));
  });
}
