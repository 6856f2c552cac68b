import 'server-only';
import type { PlannerTask } from '@/lib/plan';
import { redactUrl } from '@/lib/llm/redact-url';
import { timeoutSeconds } from '@/lib/runs/task-policy';
import { DispatchError, MAX_OUTPUT_BYTES, type DispatchRequest } from './dispatch-types';

// The limits every protocol call runs under, whichever SDK speaks the protocol: a deadline
// joined to the run's abort signal, a cap on what one answer may bring back, and one way of
// saying what went wrong that names the endpoint. The SDKs all take a `fetch`, so the cap is
// enforced where the bytes arrive, not after an SDK has buffered them.

/** The task's deadline for one call, in ms (its policy: lib/runs/task-policy). */
export function callTimeoutMs(task: Pick<PlannerTask, 'parameters'>): number {
  return Math.round(timeoutSeconds(task) * 1000);
}

class OversizeAnswer extends Error {
  constructor() {
    super(`The answer is larger than ${MAX_OUTPUT_BYTES} bytes`);
  }
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface GuardedCall {
  /** The endpoint as messages name it (no credentials, no query). */
  readonly endpoint: string;
  readonly timeoutMs: number;
  /** Aborted when the run's signal aborts or the deadline passes. */
  readonly signal: AbortSignal;
  /** `fetch` under this call's signal, with its extra headers, every answer capped at MAX_OUTPUT_BYTES. */
  readonly fetch: typeof fetch;
  /** Whatever the call threw, as a DispatchError naming the endpoint. */
  failure(error: unknown): DispatchError;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isOversize(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth += 1) {
    if (current instanceof OversizeAnswer) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export interface CallTarget {
  url: string;
  /** The protocol, as messages name it: MCP, A2A, webhook, LLM. */
  protocol: string;
  /** Sent on every HTTP request of the call (credentials, the idempotency key). */
  headers?: Record<string, string>;
}

/** Opens the limits for one call to `target` on behalf of `request`. */
export function guardCall(request: DispatchRequest, target: CallTarget): GuardedCall {
  const { url, protocol, headers = {} } = target;
  const endpoint = redactUrl(url);
  const timeoutMs = callTimeoutMs(request.task);
  const deadline = AbortSignal.timeout(timeoutMs);
  // An SDK that reads a stream in the background may swallow the capped stream's error and
  // wait on; aborting the whole call makes it give up at once.
  const overCap = new AbortController();
  const signal = AbortSignal.any([request.signal, deadline, overCap.signal]);
  let oversize = false;
  const refuseOversize = () => {
    oversize = true;
    overCap.abort(new OversizeAnswer());
    return new OversizeAnswer();
  };

  const cappedFetch: typeof fetch = async (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    const response = await fetch(input, { ...init, headers: merged, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
    if (Number(response.headers.get('content-length')) > MAX_OUTPUT_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw refuseOversize();
    }
    let seen = 0;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > MAX_OUTPUT_BYTES) {
            controller.error(refuseOversize());
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    const limited = new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(limited, 'url', { value: response.url });
    return limited;
  };

  const failure = (error: unknown): DispatchError => {
    if (oversize || isOversize(error)) {
      return new DispatchError(`${endpoint} answered more than ${MAX_OUTPUT_BYTES} bytes, the cap on one answer (MAX_OUTPUT_BYTES)`, false);
    }
    if (error instanceof DispatchError) return error;
    if (deadline.aborted) return new DispatchError(`${endpoint} did not answer within ${timeoutMs / 1000} s`);
    if (request.signal.aborted) return new DispatchError(`The ${protocol} call to ${endpoint} was aborted: ${reasonText(request.signal.reason)}`);
    const message = error instanceof Error ? error.message : String(error);
    const code = errorCode(error);
    if (code) return new DispatchError(`Could not reach ${endpoint}: ${code}${message && !message.includes(code) ? ` (${message})` : ''}`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    return new DispatchError(`The ${protocol} call to ${endpoint} failed: ${message}${cause && !message.includes(cause) ? ` (${cause})` : ''}`);
  };

  return { endpoint, timeoutMs, signal, fetch: cappedFetch, failure };
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'the run was cancelled or its job expired';
}

/** The environment credentials and the LLM settings are read from (process.env unless a test gives another). */
export type Env = Record<string, string | undefined>;

/**
 * The value of the environment variable an endpoint names for a credential. An unset variable
 * is a configuration fault retrying cannot fix.
 */
export function credentialFromEnv(name: string, field: string, resource: string, env: Env = process.env): string {
  const value = env[name];
  if (!value) throw new DispatchError(`The environment variable ${name} (${field} of resource ${resource}'s endpoint) is not set`, false);
  return value;
}

/** An HTTP status an endpoint answered with: 4xx says retrying will not help (but 408 and 429 ask for it). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** A text answer as JSON when it is JSON, else the text itself. */
export function jsonOrText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}
