import { routes } from '@/lib/api/routes';
import { RESOURCE_SCHEMAS } from '@/lib/registry';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { parseBody } from '@/lib/server/platform/http/read-json';
import { json } from '@/lib/server/platform/http/route';
import { deleteResource, parseKind, putResource } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

export const PUT = endpoint(routes.putResource, async ({ params, body, principal }) => {
  const kind = parseKind(params.kind);
  // The table's body schema takes any object; which resource schema applies depends on the path.
  const resource = parseBody(RESOURCE_SCHEMAS[kind], body, 'resource');
  const { db } = await getDatabase();
  return json(await putResource(db, kind, params.key, resource, principal.username));
});

export const DELETE = endpoint(routes.deleteResource, async ({ params, principal }) => {
  const resourceKind = parseKind(params.kind);
  const { db } = await getDatabase();
  await deleteResource(db, resourceKind, params.key, principal.username);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PATCH } = notAllowed('/api/registry/{kind}/{key}');
