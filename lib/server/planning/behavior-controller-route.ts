import 'server-only';
import { ZodError, type z } from 'zod';
import type { Routes } from '@/lib/api/routes';
import { Phase2OfferError } from '@/lib/planning/behavior-controller-protocol';
import { chooseBackend } from './choose-backend';
import type { PlanningBackend } from '@/lib/planning/planning-types';
import { getDatabase } from '../platform/db/connection';
import { AppError, fromZodError } from '../platform/errors';
import { readJsonValue } from '../platform/http/read-json';
import { checkOrigin } from '../auth/origin';
import { requireRole } from '../auth/principal';
import { json, route } from '../platform/http/route';
import { getRegistry } from '../registry/registry-service';
import type { Registry } from '@/lib/registry';

type Handler<P> = (payload: P, backend: PlanningBackend, registry: Registry) => Promise<unknown>;

/**
 * A Behavior Controller endpoint in seed 000's protocol: every answer, good or bad (a
 * missing token and a wrong role included), is `{ success, data }` or
 * `{ success: false, error }`, so a controller client never reads Plangate's own error shape.
 */
export function behaviorControllerRoute<B extends z.ZodType>(spec: Pick<Routes['processPhase1Task'], 'role'> & { body: B }, handle: Handler<z.infer<B>>) {
  // The payload schema and the role are the route table's.
  const schema = spec.body;
  return route(async (request) => {
    let value: unknown;
    try {
      checkOrigin(request.method, request.headers);
      await requireRole(request.headers, spec.role);
      value = await readJsonValue(request);
    } catch (error) {
      if (error instanceof AppError) return json({ success: false, error: error.message }, error.status);
      throw error;
    }
    const payload = schema.safeParse(value);
    if (!payload.success) {
      const issue = payload.error.issues[0];
      return json({ success: false, error: `Invalid payload: ${issue.path.join('.') || '(root)'}: ${issue.message}` }, 400);
    }
    let backend: PlanningBackend;
    try {
      backend = chooseBackend();
    } catch (error) {
      return json({ success: false, error: (error as Error).message }, 503);
    }
    const { db } = await getDatabase();
    const registry = await getRegistry(db);
    try {
      return json({ success: true, data: await handle(payload.data, backend, registry) });
    } catch (error) {
      // A task or input inside the payload that does not parse is the caller's error.
      if (error instanceof ZodError) return json({ success: false, error: fromZodError(error, 'payload').message }, 400);
      if (error instanceof Phase2OfferError) return json({ success: false, error: error.message }, 422);
      return json({ success: false, error: `${backend.label} failed: ${(error as Error).message}` }, 502);
    }
  });
}
