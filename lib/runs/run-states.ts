// The states a run and its tasks move through (issue #16's vocabulary, shared by the API,
// the engine and the run view). The engine records task states; a run's state follows
// from them, except for what a person decided (paused, cancelled) and an integrity failure
// (failed). There is no `queued` run state: a run is running from the transaction that
// records it, since that transaction also queues its ready tasks.

export const RUN_STATES = ['running', 'paused', 'awaiting_approval', 'needs_replan', 'succeeded', 'failed', 'cancelled'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const TASK_STATES = ['pending', 'blocked', 'running', 'retrying', 'awaiting_approval', 'succeeded', 'failed', 'skipped', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** A task in one of these will not change again within this generation (a retry starts a new one). */
export const FINISHED_TASK_STATES: ReadonlySet<TaskState> = new Set(['succeeded', 'failed', 'blocked', 'skipped', 'cancelled']);

/** A run in one of these runs nothing more. */
export const FINISHED_RUN_STATES: ReadonlySet<RunState> = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * A run that will change no more: finished, with no call still under way. A cancelled run's
 * calls in flight are aborted after the run itself is marked, and record how they ended a
 * moment later, so whoever follows a run (its event feed, its page) waits for those too.
 */
export function isRunSettled(state: RunState, tasksRunning: number): boolean {
  return FINISHED_RUN_STATES.has(state) && tasksRunning === 0;
}

/**
 * A run in one of these may start a task's call: branches that do not depend on a waiting
 * gate or a failed task go on. Paused and finished runs start none.
 */
export const STARTABLE_RUN_STATES: ReadonlySet<RunState> = new Set(['running', 'awaiting_approval', 'needs_replan']);

/**
 * What a run's state is, given its tasks' states and what it was. Cancelled and failed are
 * final; a pause holds until a person resumes it (or until every task succeeded), even when
 * a call that was under way fails meanwhile. Otherwise: every task succeeded → succeeded;
 * any failed (its dependents blocked) → needs_replan, while the tasks that do not depend on
 * it finish; a gate waiting → awaiting_approval.
 */
export function deriveRunState(current: RunState, counts: Partial<Record<TaskState, number>>): RunState {
  if (current === 'cancelled' || current === 'failed') return current;
  const n = (state: TaskState) => counts[state] ?? 0;
  const total = TASK_STATES.reduce((sum, state) => sum + n(state), 0);
  if (n('succeeded') + n('skipped') === total) return 'succeeded';
  if (current === 'paused') return 'paused';
  if (n('failed') + n('blocked') > 0) return 'needs_replan';
  // A gate waiting is what the people watching must see, even while other branches run.
  if (n('awaiting_approval') > 0) return 'awaiting_approval';
  return 'running';
}

/**
 * The idempotency key every external call of one generation of a task carries: the same for
 * its retries after a failed call and for a re-delivery after a worker died mid-call, so an
 * executor can recognise a repeat. An operator's retry starts a new generation, a new key.
 */
export const idempotencyKey = (runId: string, taskId: string, generation: number) => `${runId}:${taskId}:${generation}`;
