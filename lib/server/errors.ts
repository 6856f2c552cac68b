import type { z } from 'zod';
import { formatPath } from '@/lib/plan';

export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'not_found'
  | 'conflict'
  | 'stale'
  | 'not_approved'
  | 'integrity'
  | 'planner_failed'
  | 'unavailable'
  | 'payload_too_large'
  | 'unprocessable'
  | 'internal';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error a client can act on: it maps to one HTTP status and one JSON shape. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra machine-readable fields sent beside code and message (e.g. current_revision). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
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
