import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { markRead } from '@/lib/server/inbox/inbox-service';

export const dynamic = 'force-dynamic';

// Reading one's own inbox changes no plan, so a viewer may do it too.
export const POST = endpoint(routes.markInboxRead, async ({ body, principal }) => {
  const { db } = await getDatabase();
  return json(await markRead(db, principal.username, body));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/inbox/read');
