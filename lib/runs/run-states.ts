// The states a run and its tasks move through (issue #16's vocabulary, shared by the API,
// the engine and the run view). The engine records task states; a run's state follows
// from them, except for what a person decided (paused, cancelled).

export const RUN_STATES = ['queued', 'running', 'paused', 'awaiting_approval', 'needs_replan', 'succeeded', 'failed', 'cancelled'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const TASK_STATES = ['pending', 'blocked', 'running', 'retrying', 'awaiting_approval', 'succeeded', 'failed', 'skipped', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** A task in one of these will not change again within this run (a retry starts it afresh). */
export const FINISHED_TASK_STATES: ReadonlySet<TaskState> = new Set(['succeeded', 'failed', 'blocked', 'skipped', 'cancelled']);

/** A run in one of these runs nothing more. */
export const FINISHED_RUN_STATES: ReadonlySet<RunState> = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * What a run's state is, given its tasks' states and what it was. Cancelled and failed are
 * final; a pause holds until resumed (or until every task succeeded). Otherwise: every task
 * succeeded → succeeded; any failed (its dependents blocked) → needs_replan, while the tasks
 * that do not depend on it finish; a gate waiting → awaiting_approval.
 */
export function deriveRunState(current: RunState, counts: Partial<Record<TaskState, number>>): RunState {
  if (current === 'cancelled' || current === 'failed') return current;
  const n = (state: TaskState) => counts[state] ?? 0;
  const total = TASK_STATES.reduce((sum, state) => sum + n(state), 0);
  const failed = n('failed') + n('blocked') > 0;
  const waiting = n('awaiting_approval') > 0;
  if (n('succeeded') + n('skipped') === total) return 'succeeded';
  if (failed) return 'needs_replan';
  // Only every task succeeding (above) or a failure ends a pause; a person resumes it.
  if (current === 'paused') return 'paused';
  // A gate waiting is what the people watching must see, even while other branches run.
  if (waiting) return 'awaiting_approval';
  return 'running';
}

/** The idempotency key every external call of one attempt carries. */
export const idempotencyKey = (runId: string, taskId: string, attempt: number) => `${runId}:${taskId}:${attempt}`;
