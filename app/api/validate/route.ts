import { ValidateRequest } from '@/lib/api/schemas';
import { readJson } from '@/lib/server/http/read-json';
import { authed, json } from '@/lib/server/http/route';
import { validatePlan } from '@/lib/validate';

export const dynamic = 'force-dynamic';

export const POST = authed('viewer', async (request) => {
  const { plan } = await readJson(request, ValidateRequest);
  return json(validatePlan(plan));
});
