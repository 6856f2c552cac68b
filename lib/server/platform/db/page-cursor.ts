import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { AppError } from '../errors';

// Keyset paging: a cursor names the last row a page showed, by its sort key, and the next
// page starts strictly after that key. Unlike an offset, rows inserted between two requests
// neither shift later rows onto a page already shown nor push unseen rows past the reader.
// The cursor is opaque to clients (base64url JSON) and says which list and order it was made
// for, so one from another list or sort is refused rather than misread.

const CursorBody = z.strictObject({ list: z.string(), key: z.array(z.union([z.string(), z.number()])).min(1).max(4) });

/**
 * A timestamp column as a cursor key: UTC text with microseconds. A Date keeps only
 * milliseconds, and a key that lost precision would resume before or after its own row.
 */
export function timestampKey(column: PgColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
/** The shape a timestampKey has in a decoded cursor; compare it as `${key}::timestamptz`. */
export const TimestampKey = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

export const invalidCursor = () => new AppError('bad_request', 400, 'Invalid cursor');

export function encodeCursor(list: string, key: Array<string | number>): string {
  return Buffer.from(JSON.stringify({ list, key }), 'utf8').toString('base64url');
}

/**
 * The key a cursor carries, checked against the list it must belong to and the shape its
 * key must have; anything else is a 400 'Invalid cursor'.
 */
export function decodeCursor<T extends z.ZodType>(cursor: string, list: string, key: T): z.infer<T> {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const body = CursorBody.safeParse(value);
  if (!body.success || body.data.list !== list) throw invalidCursor();
  const parsed = key.safeParse(body.data.key);
  if (!parsed.success) throw invalidCursor();
  return parsed.data;
}

/**
 * A page from `limit + 1` fetched rows: the extra row only says that there is a next page,
 * whose cursor is the key of the last row shown.
 */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): { items: T[]; next_cursor: string | null } {
  if (rows.length <= limit) return { items: rows, next_cursor: null };
  const items = rows.slice(0, limit);
  return { items, next_cursor: cursorOf(items[items.length - 1]) };
}
