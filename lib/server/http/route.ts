import { NextResponse } from 'next/server';
import { revisionFromText } from '@/lib/api/schemas';
import { AppError } from '../errors';

type Handler<C> = (request: Request, context: C) => Promise<Response>;

export function json(body: unknown, status = 200, headers?: HeadersInit): NextResponse {
  return NextResponse.json(body, { status, headers });
}

/** Turns thrown AppErrors into their JSON response and anything else into a logged 500. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      if (error instanceof AppError) return json(error.toJSON(), error.status);
      console.error(`[plangate] ${request.method} ${new URL(request.url).pathname} failed:`, error);
      return json({ error: { code: 'internal', message: 'Internal server error' } }, 500);
    }
  };
}

export function parseRevisionParam(value: string): number {
  const revision = revisionFromText(value);
  if (revision === null) throw new AppError('bad_request', 400, `Revision must be a positive integer, got "${value}"`);
  return revision;
}
