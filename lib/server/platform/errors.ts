import 'server-only';
import type { z } from 'zod';
import { formatPath } from '@/lib/plan';

export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'stale'
  | 'not_approved'
  | 'integrity'
  | 'planner_failed'
  | 'unavailable'
  | 'payload_too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'internal';

/**
 * The one place an error code meets its HTTP status: AppError takes its status from here,
 * and the OpenAPI document describes error bodies by it.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  stale: 409,
  not_approved: 409,
  integrity: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  planner_failed: 502,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export type ErrorStatus<C extends ErrorCode> = (typeof ERROR_STATUS)[C];

export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * An error a client can act on: it maps to one HTTP status and one JSON shape. The status
 * argument is typed from ERROR_STATUS, so a call site that disagrees with the table does
 * not compile, and the status used is always the table's.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;

  constructor(
    readonly code: C,
    status: ErrorStatus<C>,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra machine-readable fields sent beside code and message (e.g. current_revision). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code] ?? status;
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}), ...this.extra } };
  }
}


export function fromZodError(error: z.ZodError, what: string, prefix: PropertyKey[] = []): AppError {
  const details = error.issues.slice(0, 50).map((issue) => ({ path: formatPath([...prefix, ...issue.path]), message: issue.message }));
  const first = details[0];
  const more = details.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return new AppError('bad_request', 400, `Invalid ${what}: ${first.path}: ${first.message}${more}`, details);
}

export const notFound = (what: string) => new AppError('not_found', 404, `${what} not found`);

/** Too many requests: 429, with the seconds to wait as `retry_after_seconds` (routes also send it as Retry-After). */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', 429, message, undefined, { retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
