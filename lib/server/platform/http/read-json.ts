import 'server-only';
import type { z } from 'zod';
import { PLAN_LIMITS, formatBytes } from '@/lib/plan';
import { parseJsonBody, unstorableBodyProblem } from '@/lib/api/json-body';
import { AppError, fromZodError } from '../errors';

// A request body may carry a whole plan, so the cap is the plan limit plus room for the
// envelope. Reading is streamed so an oversized body is refused without buffering it all.
const MAX_BODY_BYTES = PLAN_LIMITS.maxPlanBytes + 64 * 1024;

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', 413, `The request body is larger than ${formatBytes(maxBytes)}`);
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads, parses and validates a JSON body; every failure is a specific 4xx. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, what = 'request body'): Promise<z.infer<S>> {
  return parseBody(schema, await readJsonValue(request, what), what);
}

export function parseBody<S extends z.ZodType>(schema: S, value: unknown, what = 'request body'): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error, what);
  return parsed.data;
}

/** A JSON body's exact text, unparsed: for a handler that verifies a signature over it first (and may cap it lower). */
export async function readJsonText(request: Request, what = 'request body', maxBytes = MAX_BODY_BYTES): Promise<string> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new AppError('unsupported_media_type', 415, `Send the ${what} as JSON with "Content-Type: application/json"`);
  }
  return readText(request, maxBytes);
}

/**
 * Parses a body's text as JSON; every failure is a specific 400, checked before anything
 * acts on it: text no database row can hold (NUL, an unpaired surrogate) and nesting deeper
 * than any plan needs, which a schema's recursion would otherwise turn into a 500.
 */
export function parseJsonText(text: string, what = 'request body'): unknown {
  const parsed = parseJsonBody(text, what);
  if (!parsed.ok) throw new AppError(parsed.problem.code, 400, parsed.problem.message);
  return parsed.value;
}

/** Refuses (400) what no database row can hold, or nesting deeper than any plan needs: for JSON bodies and server actions' input alike. */
export function checkStorable(value: unknown, what: string): void {
  const problem = unstorableBodyProblem(value, what);
  if (problem) throw new AppError(problem.code, 400, problem.message);
}

/** The body as parsed JSON, before any schema: for handlers that also need what was omitted. */
export async function readJsonValue(request: Request, what = 'request body'): Promise<unknown> {
  return parseJsonText(await readJsonText(request, what), what);
}

/** For bodies whose every field is optional: no body at all reads as `{}`. */
export async function readOptionalJson<S extends z.ZodType>(request: Request, schema: S, what = 'request body'): Promise<z.infer<S>> {
  return parseBody(schema, await readOptionalJsonValue(request, what), what);
}

/** The body as parsed JSON, or `{}` when there is none at all (no type, no length). */
export async function readOptionalJsonValue(request: Request, what = 'request body'): Promise<unknown> {
  if (!request.headers.get('content-type') && (request.headers.get('content-length') ?? '0') === '0') return {};
  return readJsonValue(request, what);
}
