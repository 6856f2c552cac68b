import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import { FINISHED_RUN_STATES, type RunState } from '@/lib/runs/run-states';
import { appendAudit } from '../audit/audit-log';
import type { DatabaseHandle } from '../platform/db/client';
import { taskRuns } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { getJobQueue } from './job-queue';
import { appendRunEvents, type RunEventInput } from './run-events';
import { lockRunRow, refreshRunState } from './run-records';
import { cancelJobs, queuedJobIds } from './run-scheduler';
import { abortRunCalls } from './run-calls';

// When what a run was started on no longer verifies (its approved revision was changed in
// the database after approval, or its resource snapshot became unreadable), nothing more of
// it may run: the task whose job found it fails with error kind `integrity`, every task not
// yet done is cancelled, and the run is `failed`, the one run state that says "this record
// cannot be trusted, so it cannot be continued either". The audit chain records it.

export const isIntegrityError = (error: unknown): error is AppError => error instanceof AppError && error.code === 'integrity';

export async function failRunForIntegrity(handle: DatabaseHandle, runId: string, taskId: string | null, message: string): Promise<void> {
  await getJobQueue(handle);
  await handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (FINISHED_RUN_STATES.has(run.state as RunState)) return;
    const events: RunEventInput[] = [];
    if (taskId) {
      const failed = await tx
        .update(taskRuns)
        .set({ state: 'failed', error: message, errorKind: 'integrity', jobId: null, workerId: null, finishedAt: new Date() })
        .where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId), inArray(taskRuns.state, ['pending', 'retrying', 'running', 'awaiting_approval'])))
        .returning({ taskId: taskRuns.taskId });
      if (failed.length) events.push({ kind: 'task_failed', taskId, detail: { error: message, error_kind: 'integrity' } });
    }
    await cancelJobs(handle, tx, await queuedJobIds(tx, runId, ['pending', 'retrying']));
    const cancelled = await tx
      .update(taskRuns)
      .set({ state: 'cancelled', error: 'Not run: the run failed its integrity check', jobId: null, finishedAt: new Date() })
      .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.state, ['pending', 'retrying', 'awaiting_approval'])))
      .returning({ taskId: taskRuns.taskId });
    events.push(...cancelled.map((row) => ({ kind: 'task_cancelled' as const, taskId: row.taskId, detail: { error_kind: 'integrity' } })));
    await appendRunEvents(tx, runId, events);
    await refreshRunState(tx, runId, 'plangate', 'failed');
    await appendAudit(tx, {
      kind: 'run_integrity_failed',
      actor: 'plangate',
      planId: run.planId,
      revision: run.revision,
      contentHash: run.contentHash,
      detail: { run_id: runId, task_id: taskId, error: message },
    });
  });
  // Calls of other branches stop here at once, on other instances within a second.
  abortRunCalls(runId, 'The run failed its integrity check');
}
