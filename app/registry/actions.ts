'use server';

import { z } from 'zod';
import { RESOURCE_KINDS, RESOURCE_SCHEMAS, Registry } from '@/lib/registry';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { parseBody } from '@/lib/server/platform/http/read-json';
import { deleteResource, putResource, replaceRegistry } from '@/lib/server/registry/registry-service';

const PutInput = z.strictObject({ kind: z.enum(RESOURCE_KINDS), key: z.string().min(1).max(200), resource: z.unknown() });

export async function putResourceAction(input: z.input<typeof PutInput>) {
  return runAction('editor', PutInput, input, async ({ kind, key, resource }, principal) => {
    // Parsed apart from the envelope so its errors name the resource's own fields, as the API's do.
    const parsed = parseBody(RESOURCE_SCHEMAS[kind], resource, 'resource');
    const { db } = await getDatabase();
    return putResource(db, kind, key, parsed, principal.username);
  });
}

const DeleteInput = z.strictObject({ kind: z.enum(RESOURCE_KINDS), key: z.string().min(1).max(200) });

export async function deleteResourceAction(input: z.input<typeof DeleteInput>) {
  return runAction('editor', DeleteInput, input, async ({ kind, key }, principal) => {
    const { db } = await getDatabase();
    await deleteResource(db, kind, key, principal.username);
    return { kind, key };
  });
}

const ImportInput = z.strictObject({ registry: z.unknown() });

export async function importRegistryAction(input: z.input<typeof ImportInput>) {
  return runAction('editor', ImportInput, input, async ({ registry }, principal) => {
    const parsed = parseBody(Registry, registry, 'registry');
    const { db } = await getDatabase();
    return replaceRegistry(db, parsed, principal.username);
  });
}
