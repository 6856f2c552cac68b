import type { z } from 'zod';
import { AppError, fromZodError } from './errors';

// Server actions are public endpoints like any route: parse the input, run the service,
// and hand back a typed result instead of throwing across the network boundary.

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; details?: Array<{ path: string; message: string }>; [key: string]: unknown } };

export async function runAction<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  fn: (parsed: z.infer<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw fromZodError(parsed.error, 'input');
    return { ok: true, data: await fn(parsed.data) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toJSON().error };
    console.error('[plangate] server action failed:', error);
    return { ok: false, error: { code: 'internal', message: 'Internal server error' } };
  }
}
