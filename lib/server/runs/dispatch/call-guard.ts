import 'server-only';
import type { PlannerTask } from '@/lib/plan';
import { redactUrl } from '@/lib/llm/redact-url';
import { timeoutSeconds } from '@/lib/runs/task-policy';
import { AddressRefused, guardedFetch, guardRefusal, RedirectRefused } from './address-guard';
import { DispatchError, MAX_OUTPUT_BYTES, type DispatchRequest } from './dispatch-types';

// The limits every protocol call runs under, whichever SDK speaks the protocol: a deadline
// joined to the run's abort signal, a cap on what one answer may bring back, the address
// guard (address-guard.ts) on every connection to a URL an editor configured, and one way of
// saying what went wrong that names the endpoint. The SDKs all take a `fetch`, so the cap and
// the guard apply where the bytes go out and come in, not after an SDK has buffered them.
// What viewers read of a failure is Plangate's own words and an HTTP status: never the body
// of an error answer, never the socket's own error (which would map open ports).

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

/** A failure below HTTP: DNS, connect, TLS, a reset or closed socket (errors that carry a code, or fetch's own). */
function isTransportError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z_]+|UND_ERR_[A-Z_]+|ERR_TLS_[A-Z_]+|[A-Z_]*CERT[A-Z_]*)$/.test(code)) return true;
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
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
  /**
   * The operator configured this URL in the environment (LLM_BASE_URL): it may be on a
   * private network without being listed in PLANGATE_DISPATCH_ALLOW.
   */
  trusted?: boolean;
}

/** Opens the limits for one call to `target` on behalf of `request`. */
export function guardCall(request: DispatchRequest, target: CallTarget): GuardedCall {
  const { url, protocol, headers = {}, trusted = false } = target;
  const endpoint = redactUrl(url);
  const timeoutMs = callTimeoutMs(request.task);
  const deadline = AbortSignal.timeout(timeoutMs);
  // An SDK that reads a stream in the background may swallow the capped stream's error, or
  // the guard's, and wait on; aborting the whole call makes it give up at once.
  const stopped = new AbortController();
  const signal = AbortSignal.any([request.signal, deadline, stopped.signal]);
  let oversize = false;
  let refusal: ReturnType<typeof guardRefusal> = null;
  /** The status of the latest answer: an SDK's error about a non-2xx answer is reported as this. */
  let lastStatus = 0;
  const refuseOversize = () => {
    oversize = true;
    stopped.abort(new OversizeAnswer());
    return new OversizeAnswer();
  };
  const send = trusted ? fetch : guardedFetch;

  const cappedFetch: typeof fetch = async (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    let response: Response;
    try {
      response = await send(input, { ...init, headers: merged, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    } catch (error) {
      refusal ??= guardRefusal(error);
      if (refusal) stopped.abort(refusal);
      throw error;
    }
    lastStatus = response.status;
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
    const refused = refusal ?? guardRefusal(error);
    if (refused instanceof AddressRefused) return new DispatchError(`Plangate did not call ${endpoint}: ${refused.message}`, false);
    if (refused instanceof RedirectRefused) return new DispatchError(`${endpoint} ${refused.message}`, false);
    if (refused) return new DispatchError(`Plangate did not call ${endpoint}: ${refused.message}`, false);
    if (error instanceof DispatchError) return error;
    if (deadline.aborted) return new DispatchError(`${endpoint} did not answer within ${timeoutMs / 1000} s`);
    if (request.signal.aborted) return new DispatchError(`The ${protocol} call to ${endpoint} was aborted: ${reasonText(request.signal.reason)}`);
    if (lastStatus && (lastStatus < 200 || lastStatus > 299)) return statusFailure(endpoint, lastStatus);
    if (isTransportError(error)) return new DispatchError(`Could not reach ${endpoint}`);
    const message = error instanceof Error ? error.message : String(error);
    return new DispatchError(`The ${protocol} call to ${endpoint} failed: ${message.slice(0, 300)}`);
  };

  return { endpoint, timeoutMs, signal, fetch: cappedFetch, failure };
}

/**
 * An endpoint answered a non-2xx status: said by status alone, since the body of an error
 * answer is the endpoint's (an internal service's error page, say) and viewers read task errors.
 */
export function statusFailure(endpoint: string, status: number): DispatchError {
  return new DispatchError(`${endpoint} answered HTTP ${status}`, isRetryableStatus(status));
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'the run was cancelled or its job expired';
}

/** The environment credentials and the LLM settings are read from (process.env unless a test gives another). */
export type Env = Record<string, string | undefined>;

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
