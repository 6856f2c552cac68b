import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/db/connection';
import { endpoint, notAllowed } from '@/lib/server/http/endpoint';
import { json } from '@/lib/server/http/route';
import { getRegistry } from '@/lib/server/registry/registry-service';
import { validatePlanAsync } from '@/lib/validate';

export const dynamic = 'force-dynamic';

export const POST = endpoint(routes.validateDocument, async ({ body }) => {
  const { db } = await getDatabase();
  return json(await validatePlanAsync(body.plan, await getRegistry(db)));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/validate');
