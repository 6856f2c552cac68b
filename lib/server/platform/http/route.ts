import 'server-only';
import { NextResponse } from 'next/server';
import { revisionFromText } from '@/lib/api/schemas';
import type { Role } from '@/lib/auth/roles';
import { checkOrigin } from '../../auth/origin';
import { requireRole, type Principal } from '../../auth/principal';
import { AppError } from '../errors';
import { logError } from './log-error';
import { inFlight } from '../shutdown';

type Handler<C> = (request: Request, context: C) => Promise<Response>;
type AuthedHandler<C> = (request: Request, context: C, principal: Principal) => Promise<Response>;

export function json(body: unknown, status = 200, headers?: HeadersInit): NextResponse {
  return NextResponse.json(body, { status, headers });
}

/** A JSON answer whose text the caller already wrote (a large one put together from stored pieces). */
export function jsonText(text: string, status = 200): NextResponse {
  return new NextResponse(text, { status, headers: { 'content-type': 'application/json' } });
}

/** Turns thrown AppErrors into their JSON response and anything else into a logged 500. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      // Counted while it runs, so a stopping server lets it finish (shutdown.ts).
      return await inFlight(() => handler(request, context));
    } catch (error) {
      if (error instanceof AppError) {
        const retry = error.extra?.retry_after_seconds;
        return json(error.toJSON(), error.status, typeof retry === 'number' ? { 'Retry-After': String(retry) } : undefined);
      }
      // The client went away mid-request (a tab closing while it said goodbye): nobody is
      // left to answer and nothing failed on our side.
      if (request.signal.aborted) return json({ error: { code: 'bad_request', message: 'The request was aborted' } }, 400);
      // Method and path only: the query string and the body may hold anything, at any size.
      logError(`${request.method} ${new URL(request.url).pathname} failed`, error);
      return json({ error: { code: 'internal', message: 'Internal server error' } }, 500);
    }
  };
}

/**
 * A route that needs a signed-in caller with at least `role`. The check runs here, in the
 * handler, so no path around a proxy can skip it; state-changing methods are also refused
 * when a browser sends them from another origin.
 */
export function authed<C>(role: Role, handler: AuthedHandler<C>): Handler<C> {
  return route(async (request, context) => {
    checkOrigin(request.method, request.headers);
    const principal = await requireRole(request.headers, role);
    return handler(request, context, principal);
  });
}

export function parseRevisionParam(value: string): number {
  const revision = revisionFromText(value);
  if (revision === null) throw new AppError('bad_request', 400, `Revision must be a positive integer, got "${value}"`);
  return revision;
}
