import 'server-only';
import type { z } from 'zod';
import { PLAN_LIMITS, formatBytes, unstorableJson } from '@/lib/plan';
import { AppError, fromZodError } from '../errors';

// A request body may carry a whole plan, so the cap is the plan limit plus room for the
// envelope. Reading is streamed so an oversized body is refused without buffering it all.
const MAX_BODY_BYTES = PLAN_LIMITS.maxPlanBytes + 64 * 1024;
// Free-form JSON inside a plan nests at most maxJsonDepth levels; the request around it adds a few.
const MAX_BODY_DEPTH = PLAN_LIMITS.maxJsonDepth + 16;

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
  if (!text.trim()) throw new AppError('invalid_json', 400, `The ${what} is empty; expected a JSON object`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', 400, `Malformed JSON in the ${what}: ${(error as Error).message}`);
  }
  checkStorable(value, what);
  return value;
}

/** Refuses (400) what no database row can hold, or nesting deeper than any plan needs: for JSON bodies and server actions' input alike. */
export function checkStorable(value: unknown, what: string): void {
  const problem = unstorableJson(value, MAX_BODY_DEPTH);
  if (problem === 'depth') throw new AppError('bad_request', 400, `The ${what} nests deeper than ${MAX_BODY_DEPTH} levels`);
  if (problem === 'text') throw new AppError('bad_request', 400, `The ${what} contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored`);
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
