import { ValidateRequest } from '@/lib/api/schemas';
import { readJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { validatePlanAsync } from '@/lib/validate';
import { getDatabase } from '@/lib/server/db/connection';
import { getRegistry } from '@/lib/server/registry/registry-service';

export const dynamic = 'force-dynamic';

export const POST = authed('viewer', async (request) => {
  const { plan } = await readJson(request, ValidateRequest);
  const { db } = await getDatabase();
  return json(await validatePlanAsync(plan, await getRegistry(db)));
});
