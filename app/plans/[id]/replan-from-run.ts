import type { Database } from '@/lib/server/platform/db/client';
import { AppError } from '@/lib/server/platform/errors';
import { getRun } from '@/lib/server/runs/run-queries';
import { failureInstructions } from './failure-instructions';

export interface ReplanFromRun {
  taskIds: string[];
  instructions: string;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * What `?replan=a,b&run=…` asks the editor to open: the replan dialog for those tasks (the
 * ones the head still has), its instructions the run's errors for them. The errors are read
 * here, never from the link, and only from a run of this plan; any other run adds none.
 */
export async function replanFromRun(db: Database, planId: string, headTaskIds: readonly string[], query: Record<string, string | string[] | undefined>): Promise<ReplanFromRun | null> {
  const inHead = new Set(headTaskIds);
  const taskIds = [...new Set((first(query.replan) ?? '').split(',').filter((id) => inHead.has(id)))];
  if (taskIds.length === 0) return null;
  const runId = first(query.run);
  const run = runId ? await getRun(db, runId).catch((error: unknown) => (error instanceof AppError ? null : Promise.reject(error))) : null;
  if (!run || run.plan_id !== planId) return { taskIds, instructions: '' };
  const wanted = new Set(taskIds);
  const failed = run.tasks.filter((t) => wanted.has(t.task_id) && t.state === 'failed');
  return { taskIds, instructions: failureInstructions(run.run_id, failed) };
}
