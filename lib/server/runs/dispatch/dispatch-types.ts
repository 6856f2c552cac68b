import 'server-only';
import type { ExecutionType, PlannerTask } from '@/lib/plan';
import type { Resource } from '@/lib/registry';

// The contract between the run engine and the protocol clients (MCP, A2A, OpenAI-compatible,
// signed webhooks). The engine resolves what to send; a dispatcher only speaks its protocol.

export interface DispatchRequest {
  runId: string;
  taskId: string;
  /** 1 for the task's first run; an operator's retry starts the next (with attempts counted afresh). */
  generation: number;
  /** 1 for the first try within the generation; the automatic retries count up. */
  attempt: number;
  /**
   * `runId:taskId:generation`: sent with every call, and the same for every attempt of one
   * generation (a retry after a failed call, a re-delivery after a worker died mid-call), so
   * a receiver can recognise a repeat. An operator's retry starts a new generation.
   */
  idempotencyKey: string;
  kind: ExecutionType;
  /** The task as approved (never the editable draft). */
  task: PlannerTask;
  /** The resource as approved (from the run's resource snapshot); null when the task names none. */
  resource: Resource | null;
  /** The task's input with `${step[i]…}` and `†state` references resolved against upstream outputs. */
  input: unknown;
  /** Aborted when the run is cancelled or the job expires: every call must stop on it. */
  signal: AbortSignal;
  /** Where an executor that answered 202 reports the result later (signed like the webhook). */
  resultUrl: string;
}

export type DispatchOutcome =
  /** The call finished: its result, as JSON. */
  | { state: 'succeeded'; output: unknown }
  /** The executor took the task and will report through `resultUrl`. */
  | { state: 'accepted' };

/**
 * A failed call. `retryable` false means retrying cannot help (a 4xx answer, a schema
 * violation); the engine then fails the task at once instead of spending its retries.
 */
export class DispatchError extends Error {
  constructor(
    message: string,
    readonly retryable = true,
  ) {
    super(message);
    this.name = 'DispatchError';
  }
}

/** Caps what one call may bring back, so one answer cannot exhaust the server's memory. */
export const MAX_OUTPUT_BYTES = 1_000_000;

export type Dispatcher = (request: DispatchRequest) => Promise<DispatchOutcome>;
