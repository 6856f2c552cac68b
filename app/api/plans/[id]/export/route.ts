import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { exportPlan } from '@/lib/server/plans/plan-interop';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.exportPlan, async ({ params, query }) => {
  const { db } = await getDatabase();
  const exported = await exportPlan(db, params.id, query.format, query.revision);
  return new Response(exported.text, {
    headers: {
      'Content-Type': `${exported.mediaType}; charset=utf-8`,
      'Content-Disposition': `attachment; filename="${exported.filename}"`,
      // What the format could not carry, so a client can warn instead of losing it silently.
      'X-Plangate-Dropped': encodeURIComponent(JSON.stringify(exported.dropped.slice(0, 100))),
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/export');
