import { InboxQuery } from '@/lib/api/inbox-schemas';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { parseBody } from '@/lib/server/platform/http/read-json';
import { authed, json } from '@/lib/server/platform/http/route';
import { listInbox } from '@/lib/server/inbox/inbox-service';

export const dynamic = 'force-dynamic';

// Everyone who can sign in has an inbox; it only ever shows the caller's own items.
export const GET = authed('viewer', async (request, _context, principal) => {
  const query = parseBody(InboxQuery, Object.fromEntries(new URL(request.url).searchParams), 'query string');
  const { db } = await getDatabase();
  return json(await listInbox(db, principal.username, query));
});
