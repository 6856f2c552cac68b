import 'server-only';
import type { z } from 'zod';
import { queryFields } from '@/lib/api/list-schemas';
import { AppError, fromZodError } from '../errors';

/**
 * A request's query string parsed with a strict schema: an unknown or repeated parameter
 * is a 400 that names it (a misspelt filter must not quietly return everything).
 */
export function readQuery<T extends z.ZodObject>(request: Request, schema: T): z.infer<T> {
  return parseQuery(new URL(request.url).searchParams, schema);
}

/** The query string's fields; a parameter given twice (?limit=2&limit=3) is a 400, never a silent pick of one. */
export function singleQueryFields(params: URLSearchParams): Record<string, string> {
  const { fields, repeated } = queryFields(params);
  if (repeated.length) throw new AppError('bad_request', 400, `Query parameter "${repeated[0].slice(0, 40)}" is given more than once`);
  return fields;
}

export function parseQuery<T extends z.ZodObject>(params: URLSearchParams, schema: T): z.infer<T> {
  const fields = singleQueryFields(params);
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(fields).find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new AppError('bad_request', 400, `Unknown query parameter "${unknown.slice(0, 40)}"; the parameters are ${known.join(', ')}`);
  }
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw fromZodError(parsed.error, 'query string');
  return parsed.data;
}
