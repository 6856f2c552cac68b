import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '../platform/db/client';
import { plans, runs } from '../platform/db/schema';
import { notify } from '../inbox/notify';
import { emitWebhookEvent } from '../webhooks/events';
import { gateDeciders } from './gate-deciders';

// A gate that opens tells the people who can decide it, in the transaction that opened it:
// an inbox item each (linking to the run, where they decide) and the run.awaiting_approval
// webhook naming the run and the waiting tasks. Per gate, not per run state: a second gate
// opening while the run already waits at a first one is news too. The run's starter, who
// cannot decide, is not told here (the run view shows them the gate).

/** Announces that `taskIds` of `runId` now wait at their gates. */
export async function announceWaitingGates(tx: Database, runId: string, taskIds: readonly string[], actor = 'plangate'): Promise<void> {
  if (!taskIds.length) return;
  const [run] = await tx.select().from(runs).where(eq(runs.id, runId));
  if (!run) return;
  const [plan] = await tx.select({ title: plans.title }).from(plans).where(eq(plans.id, run.planId));
  const deciders = await gateDeciders(tx, run);
  for (const taskId of taskIds) {
    await notify(tx, {
      recipients: deciders,
      kind: 'gate',
      planId: run.planId,
      revision: run.revision,
      taskId,
      runId,
      actor,
      summary: `Task ${taskId} of run ${runId.slice(0, 8)} (r${run.revision} of “${plan?.title ?? run.planId}”, started by ${run.startedBy}) waits at its gate for your decision.`,
    });
  }
  await emitWebhookEvent(tx, {
    event: 'run.awaiting_approval',
    planId: run.planId,
    actor,
    detail: { run_id: runId, revision: run.revision, content_hash: run.contentHash, task_ids: [...taskIds], started_by: run.startedBy },
  });
}
