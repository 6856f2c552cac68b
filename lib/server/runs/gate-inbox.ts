import 'server-only';
import { and, eq, or } from 'drizzle-orm';
import type { GateToDecide } from '@/lib/api/run-schemas';
import { gateAllowsEdit } from '@/lib/runs/task-policy';
import type { Principal } from '../auth/principal-type';
import type { Database } from '../platform/db/client';
import { taskRuns } from '../platform/db/schema';
import { loadRunContext } from './run-records';
import { gatesWaitingFor } from './waiting-gates';

// The inbox's gates: each gate the viewer may decide, with what a decision needs on the page
// (the task's name, the input it will be sent, whether its plan lets the input be edited).

/** The gates `viewer` may decide, oldest first, ready to be decided on the page. */
export async function gatesToDecide(db: Database, viewer: Pick<Principal, 'username' | 'role' | 'service'>, limit = 20): Promise<GateToDecide[]> {
  const gates = await gatesWaitingFor(db, viewer, limit);
  if (!gates.length) return [];
  const inputs = await db
    .select({ runId: taskRuns.runId, taskId: taskRuns.taskId, input: taskRuns.input })
    .from(taskRuns)
    .where(or(...gates.map((g) => and(eq(taskRuns.runId, g.runId), eq(taskRuns.taskId, g.taskId)))));
  const inputOf = new Map(inputs.map((row) => [`${row.runId}\n${row.taskId}`, row.input]));
  const contexts = new Map<string, Awaited<ReturnType<typeof loadRunContext>> | null>();
  for (const runId of new Set(gates.map((g) => g.runId))) {
    // A run whose revision fails its integrity check decides nothing: its gates are left out.
    contexts.set(runId, await loadRunContext(db, runId).catch(() => null));
  }
  return gates.flatMap((gate) => {
    const task = contexts.get(gate.runId)?.tasks.get(gate.taskId);
    if (!task) return [];
    return [
      {
        run_id: gate.runId,
        task_id: gate.taskId,
        plan_id: gate.planId,
        plan_title: gate.planTitle,
        revision: gate.revision,
        started_by: gate.startedBy,
        since: gate.since.toISOString(),
        description: task.description ?? '',
        input: inputOf.get(`${gate.runId}\n${gate.taskId}`) ?? null,
        allow_edit: gateAllowsEdit(task),
      },
    ];
  });
}
