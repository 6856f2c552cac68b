import { getDatabase } from '@/lib/server/db/connection';
import { readJsonValue } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { deleteResource, parseKind, putResource } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ kind: string; key: string }> };

export const PUT = authed('editor', async (request, { params }: Context, principal) => {
  const { kind, key } = await params;
  const resourceKind = parseKind(kind);
  const body = await readJsonValue(request);
  const { db } = await getDatabase();
  return json(await putResource(db, resourceKind, key, body, principal.username));
});

export const DELETE = authed('editor', async (_request, { params }: Context, principal) => {
  const { kind, key } = await params;
  const resourceKind = parseKind(kind);
  const { db } = await getDatabase();
  await deleteResource(db, resourceKind, key, principal.username);
  return new Response(null, { status: 204 });
});
