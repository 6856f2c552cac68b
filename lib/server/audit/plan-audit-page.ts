import 'server-only';
import { z } from 'zod';
import type { PageQuery } from '@/lib/api/list-schemas';
import type { Database } from '../platform/db/client';
import { decodeCursor, encodeCursor, pageOf } from '../platform/db/page-cursor';
import { notFound } from '../platform/errors';
import { checkPlanId } from '../plans/plan-service';
import { findPlan } from '../plans/plan-repository';
import { auditEventOf, listPlanAudit } from './audit-log';

/**
 * One page of a plan's audit events, oldest first. The cursor is the last event's seq:
 * events are only ever appended with a higher one, so paging never skips or repeats.
 */
export async function planAuditPage(db: Database, id: string, { limit, cursor }: PageQuery) {
  checkPlanId(id);
  if (!(await findPlan(db, id))) throw notFound(`Plan "${id}"`);
  const list = `audit:${id}`;
  const afterSeq = cursor ? decodeCursor(cursor, list, z.tuple([z.number().int().min(0)]))[0] : 0;
  const rows = await listPlanAudit(db, id, { afterSeq, limit: limit + 1 });
  const page = pageOf(rows, limit, (last) => encodeCursor(list, [last.seq]));
  return { events: page.items.map(auditEventOf), next_cursor: page.next_cursor };
}
