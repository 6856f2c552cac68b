import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { runComputeJob } from '@/lib/server/platform/compute/compute-pool';
import { getRegistry } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

// The body is parsed and validated in a compute worker: 20,000 tasks take seconds.
export const POST = endpoint(routes.validateDocument, async ({ bodyText }) => {
  const { db } = await getDatabase();
  return json(await runComputeJob('validateRequest', { bodyText, registry: await getRegistry(db) }));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/validate');
