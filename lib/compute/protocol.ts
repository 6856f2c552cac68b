// The messages between the server's compute pool (lib/server/platform/compute/worker-pool.ts) and a
// compute worker (compute.worker.ts). Plain data only: everything crosses a thread by
// structured clone. A worker runs one job at a time; a job may ask the server for
// something on its way (a `call`, e.g. a convertor in the sandbox, which only the server's
// thread may start) and gets a `reply` with the same call id.

/** What the server can be told a job refused, as an error code of the API (lib/server/platform/errors.ts ERROR_STATUS). */
export type RefusalCode = 'bad_request' | 'invalid_json' | 'unprocessable' | 'integrity' | 'not_found';

export interface Refusal {
  code: RefusalCode;
  message: string;
  /** A zod error's issues, when the refusal is one: the server words them as every other bad request. */
  issues?: Array<{ path: PropertyKey[]; message: string }>;
  /** Where those issues are, for the message ("request body"). */
  what?: string;
  /** The answer's `details`, when the refusal words them itself. */
  details?: Array<{ path: string; message: string }>;
  extra?: Record<string, unknown>;
}

export type ToWorker =
  | { type: 'job'; id: number; kind: string; input: unknown }
  | { type: 'reply'; id: number; callId: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; callId: number; ok: false; message: string };

export type FromWorker =
  | { type: 'done'; id: number; ok: true; value: unknown }
  /** `refusal` is the job's own answer to bad input; without it the job failed (a bug: a 500). */
  | { type: 'done'; id: number; ok: false; message: string; refusal?: Refusal }
  | { type: 'call'; id: number; callId: number; kind: string; input: unknown };
