import { routes } from '@/lib/api/routes';
import { createComment, listComments } from '@/lib/server/comments/comment-service';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** Every thread shown on a revision (?revision=, default the head): readers may read them. */
export const GET = endpoint(routes.listComments, async ({ params, query }) => {
  const { db } = await getDatabase();
  return json(await listComments(db, params.id, query.revision));
});

/** A new thread, or a reply (thread_id): editors and approvers take part in a review. */
export const POST = endpoint(routes.createComment, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await createComment(db, params.id, body, principal), 201);
});

export const { PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/comments');
