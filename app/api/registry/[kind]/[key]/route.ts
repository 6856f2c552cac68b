import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/db/connection';
import { endpoint, notAllowed } from '@/lib/server/http/endpoint';
import { json } from '@/lib/server/http/route';
import { deleteResource, parseKind, putResource } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

export const PUT = endpoint(routes.putResource, async ({ params, body, principal }) => {
  const { db } = await getDatabase();
  return json(await putResource(db, parseKind(params.kind), params.key, body, principal.username));
});

export const DELETE = endpoint(routes.deleteResource, async ({ params, principal }) => {
  const resourceKind = parseKind(params.kind);
  const { db } = await getDatabase();
  await deleteResource(db, resourceKind, params.key, principal.username);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PATCH } = notAllowed('/api/registry/{kind}/{key}');
