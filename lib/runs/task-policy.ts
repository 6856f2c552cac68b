import type { PlannerTask } from '@/lib/plan';

// How a task runs, read from its approved parameters (so a policy is part of what was
// approved): whether a person must approve it at the moment it is ready, how often a
// failed call is retried, and how long one call may take.

export const DEFAULT_RETRIES = 2;
export const MAX_RETRIES = 10;
export const DEFAULT_TIMEOUT_SECONDS = 60;
export const MAX_TIMEOUT_SECONDS = 15 * 60;

const parameter = (task: Pick<PlannerTask, 'parameters'>, name: string): unknown => (task.parameters as Record<string, unknown> | undefined)?.[name];

function wholeNumber(value: unknown, fallback: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;
}

/** `parameters.requires_approval: true`: the task waits for an approver once its dependencies are done. */
export const requiresApproval = (task: Pick<PlannerTask, 'parameters'>): boolean => parameter(task, 'requires_approval') === true;

/** `parameters.gate_allows_edit: false` forbids the approver to change the input at the gate (allowed by default). */
export const gateAllowsEdit = (task: Pick<PlannerTask, 'parameters'>): boolean => parameter(task, 'gate_allows_edit') !== false;

/** `parameters.retries` (0–10, default 2): further attempts after a failed call. */
export const retryLimit = (task: Pick<PlannerTask, 'parameters'>): number => wholeNumber(parameter(task, 'retries'), DEFAULT_RETRIES, MAX_RETRIES);

/**
 * `parameters.retry_delay_seconds` (0–300, default 2): the wait before the first retry of a
 * failed call, doubling (with jitter) for each further one up to a minute; 0 retries at once.
 */
export const retryDelaySeconds = (task: Pick<PlannerTask, 'parameters'>): number => wholeNumber(parameter(task, 'retry_delay_seconds'), 2, 300);

/** Calls one generation of the task may start: the first and its retries. A worker that dies mid-call used one. */
export const maxAttempts = (task: Pick<PlannerTask, 'parameters'>): number => retryLimit(task) + 1;

/** `parameters.timeout_seconds` (a positive number, at most 15 minutes; default 60 s): how long one call may take. */
export const timeoutSeconds = (task: Pick<PlannerTask, 'parameters'>): number => {
  const seconds = parameter(task, 'timeout_seconds');
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, MAX_TIMEOUT_SECONDS) : DEFAULT_TIMEOUT_SECONDS;
};
