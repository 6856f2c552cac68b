'use server';

import { z } from 'zod';
import { RESOURCE_KINDS, RESOURCE_SCHEMAS, resourceKey, type Resource } from '@/lib/registry';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { parseBody } from '@/lib/server/platform/http/read-json';
import { getRegistry, putResource } from '@/lib/server/registry/registry-service';

// The fix the issues panel offers for tasks routed to resources the registry lacks: a
// minimal entry for each (an id, no schema), which an editor describes later on /registry.

const AddMissingInput = z.strictObject({
  resources: z.array(z.strictObject({ kind: z.enum(RESOURCE_KINDS), id: z.string().min(1).max(200) })).min(1).max(1000),
});

export async function addMissingResourcesAction(input: z.input<typeof AddMissingInput>) {
  return runAction('editor', AddMissingInput, input, async ({ resources }, principal) => {
    const { db } = await getDatabase();
    const registry = await getRegistry(db);
    // Keys match case-insensitively in validation: one registered since the issue was seen is kept as it is.
    const present = new Set(RESOURCE_KINDS.flatMap((kind) => (registry[kind] as Resource[]).map((r) => `${kind}\u0000${resourceKey(r).toLowerCase()}`)));
    for (const { kind, id } of resources) {
      if (present.has(`${kind}\u0000${id.toLowerCase()}`)) continue;
      const resource = parseBody(RESOURCE_SCHEMAS[kind], kind === 'llms' ? { name: id } : { id }, 'resource') as Resource;
      await putResource(db, kind, id, resource, principal.username);
      present.add(`${kind}\u0000${id.toLowerCase()}`);
    }
    return getRegistry(db);
  });
}
