import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { proposeReplan } from '@/lib/server/replan/replan-service';

export const dynamic = 'force-dynamic';

/** Replacements for the named (or mark_replan) tasks of the head revision, stored as a proposal with its diff; nothing in the plan changes yet. */
export const POST = endpoint(routes.proposeReplan, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await proposeReplan(db, params.id, body, principal), 201);
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/replan');
