import 'server-only';
import { headers } from 'next/headers';
import type { z } from 'zod';
import type { ActionResult } from '@/lib/api/action-result';
import type { Role } from '@/lib/auth/roles';
import { checkOrigin } from '../auth/origin';
import { requireRole, type Principal } from '../auth/principal';
import { AppError, fromZodError } from './errors';
import { logError } from './http/log-error';
import { checkStorable } from './http/read-json';
import { inFlight } from './shutdown';


// Server actions are public endpoints like any route: parse the input, run the service,
// and hand back a typed result instead of throwing across the network boundary.

export type { ActionResult };

/** Every action names the least role that may run it; the caller is checked before the input is read. */
export async function runAction<S extends z.ZodType, T>(
  role: Role,
  schema: S,
  input: unknown,
  fn: (parsed: z.infer<S>, principal: Principal) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    const requestHeaders = await headers();
    checkOrigin('POST', requestHeaders);
    const principal = await requireRole(requestHeaders, role);
    // What a JSON body may not carry, an action's input may not either.
    checkStorable(input, 'input');
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw fromZodError(parsed.error, 'input');
    return { ok: true, data: await inFlight(() => fn(parsed.data, principal)) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toJSON().error };
    logError('server action failed', error);
    return { ok: false, error: { code: 'internal', message: 'Internal server error' } };
  }
}
