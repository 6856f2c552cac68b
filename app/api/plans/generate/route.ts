import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { AppError } from '@/lib/server/platform/errors';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { logError } from '@/lib/server/platform/http/log-error';
import { json } from '@/lib/server/platform/http/route';
import { generatePlan } from '@/lib/server/planning/planning-service';

export const dynamic = 'force-dynamic';

/**
 * Stage 1 from a job: `201 { id, revision, content_hash, planned_by }`. A client that
 * accepts `application/x-ndjson` gets progress lines while the planner works, then one
 * `{ type: 'done', … }` or `{ type: 'error', error }` line.
 */
export const POST = endpoint(routes.generatePlan, async ({ body, principal, request }) => {
  const { db } = await getDatabase();
  if (!(request.headers.get('accept') ?? '').includes('application/x-ndjson')) {
    const created = await generatePlan(db, body, principal);
    return json(created, 201, { Location: `/api/plans/${created.id}` });
  }
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // A client that went away must not fail the planning: the plan is still made and
      // stored, and appears in the list.
      const send = (line: unknown) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        } catch {
          // the stream was cancelled
        }
      };
      try {
        const created = await generatePlan(db, body, principal, (message) => send({ type: 'progress', message }));
        send({ type: 'done', ...created });
      } catch (error) {
        if (!(error instanceof AppError)) logError('plan generation failed', error);
        send({ type: 'error', error: error instanceof AppError ? error.toJSON().error : { code: 'internal', message: 'Internal server error' } });
      } finally {
        try {
          controller.close();
        } catch {
          // already cancelled
        }
      }
    },
  });
  return new Response(stream, { status: 200, headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' } });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/generate');
