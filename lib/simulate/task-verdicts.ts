import type { DryRunResult, TaskRunStatus } from './dry-run';

// Its own module, importing only types, so the browser can colour the canvas without
// loading the scheduler.

/** What a dry run says of each task: it would run, fail, be skipped, or run with a finding. */
export type TaskVerdict = TaskRunStatus | 'finding';

export function taskVerdicts(result: Pick<DryRunResult, 'tasks' | 'findings'>): Record<string, TaskVerdict> {
  const verdicts: Record<string, TaskVerdict> = Object.fromEntries(result.tasks.map((t) => [t.task_id, t.status]));
  for (const finding of result.findings) if (verdicts[finding.task_id] === 'ran') verdicts[finding.task_id] = 'finding';
  return verdicts;
}
