import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { heartbeat, leave } from '@/lib/server/presence/presence-service';

// A route, not a server action: a browser runs its server actions one at a time, so a
// heartbeat every few seconds would queue behind (and ahead of) every save and click.

export const dynamic = 'force-dynamic';

/** One open tab's heartbeat: records that it is here, answers with the plan's live state. Anyone who may read the plan. */
export const POST = endpoint(routes.heartbeat, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await heartbeat(db, params.id, principal.username, body));
});

/** A tab that closed: others stop seeing it at once instead of when it goes stale. */
export const DELETE = endpoint(routes.leavePresence, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  await leave(db, params.id, principal.username, body.session_id);
  return new Response(null, { status: 204 });
});

export const { GET, PUT, PATCH } = notAllowed('/api/plans/{id}/presence');
