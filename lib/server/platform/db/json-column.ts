import 'server-only';
import type { z } from 'zod';
import { AppError } from '../errors';

// jsonb columns come back from the database as whatever was stored, typed only by a
// `$type` claim. Reading one through its zod schema turns a row that no longer matches
// (edited by hand, written by older code) into an integrity error that names the row,
// instead of a crash deep inside whatever used it.

export interface JsonColumnRef {
  table: string;
  column: string;
  /** The row's key, as an admin would look it up. */
  row: string | number;
}

export function parseJsonColumn<S extends z.ZodType>(schema: S, value: unknown, where: JsonColumnRef): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const at = first ? ` (${[where.column, ...first.path].join('.')}: ${first.message})` : '';
  throw new AppError('integrity', 409, `${where.table} row ${where.row}: the stored ${where.column} does not match its schema${at}`, undefined, {
    reason: 'integrity',
    table: where.table,
    row: String(where.row),
  });
}
