import { getDatabase } from '@/lib/server/db/connection';
import { authed, parseRevisionParam } from '@/lib/server/http/route';
import { exportPlan } from '@/lib/server/plans/plan-interop';

export const dynamic = 'force-dynamic';

export const GET = authed('viewer', async (request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const query = new URL(request.url).searchParams;
  const revision = query.get('revision');
  const { db } = await getDatabase();
  const exported = await exportPlan(db, id, query.get('format') ?? 'taskdata', revision ? parseRevisionParam(revision) : undefined);
  return new Response(exported.text, {
    headers: {
      'Content-Type': `${exported.mediaType}; charset=utf-8`,
      'Content-Disposition': `attachment; filename="${exported.filename}"`,
      // What the format could not carry, so a client can warn instead of losing it silently.
      'X-Plangate-Dropped': encodeURIComponent(JSON.stringify(exported.dropped.slice(0, 100))),
    },
  });
});
