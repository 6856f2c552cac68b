import 'server-only';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { hasRole } from '@/lib/auth/roles';
import { FINISHED_RUN_STATES } from '@/lib/runs/run-states';
import type { Principal } from '../auth/principal-type';
import type { Database } from '../platform/db/client';
import { plans, runEvents, runs, taskRuns } from '../platform/db/schema';
import { gateExclusions, gateRefusalOf, type GateExclusions } from './gate-deciders';

// The review queue's "Gates waiting": tasks of live runs that wait at their gate and that
// the viewer may decide under the run's four-eyes rule (gate-deciders.ts), waiting longest
// first. Bounded: at most SCANNED gates are read and judged per request.

const SCANNED = 100;

export interface WaitingGate {
  runId: string;
  taskId: string;
  planId: string;
  planTitle: string;
  revision: number;
  runState: string;
  startedBy: string;
  /** When the gate opened (its newest gate_waiting event); the run's start if none is recorded. */
  since: Date;
}

/** Gates `viewer` may decide, oldest first, at most `limit`. */
export async function gatesWaitingFor(db: Database, viewer: Pick<Principal, 'username' | 'role' | 'service'>, limit = 50): Promise<WaitingGate[]> {
  // Nobody else decides a gate; spare them the reading.
  if (viewer.service || !hasRole(viewer.role, 'approver')) return [];
  const opened = sql<Date>`coalesce((select max(${runEvents.at}) from ${runEvents} where ${runEvents.runId} = ${taskRuns.runId} and ${runEvents.taskId} = ${taskRuns.taskId} and ${runEvents.kind} = 'gate_waiting'), ${runs.createdAt})`;
  const rows = await db
    .select({
      runId: taskRuns.runId,
      taskId: taskRuns.taskId,
      planId: runs.planId,
      planTitle: plans.title,
      revision: runs.revision,
      runState: runs.state,
      startedBy: runs.startedBy,
      since: opened.mapWith((value: string | Date) => new Date(value)),
    })
    .from(taskRuns)
    .innerJoin(runs, eq(runs.id, taskRuns.runId))
    .innerJoin(plans, eq(plans.id, runs.planId))
    .where(and(eq(taskRuns.state, 'awaiting_approval'), notInArray(runs.state, [...FINISHED_RUN_STATES])))
    .orderBy(asc(opened), asc(taskRuns.runId), asc(taskRuns.taskId))
    .limit(SCANNED);
  if (!rows.length) return [];
  // The rule is the run's: judged once per run, on the run rows the gates belong to.
  const runRows = await db
    .select()
    .from(runs)
    .where(inArray(runs.id, [...new Set(rows.map((row) => row.runId))]));
  const judged = new Map<string, GateExclusions>();
  for (const run of runRows) judged.set(run.id, await gateExclusions(db, run));
  return rows.filter((row) => gateRefusalOf(judged.get(row.runId)!, viewer) === null).slice(0, limit);
}
