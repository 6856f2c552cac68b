import 'server-only';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { DEMO_REGISTRY, RESOURCE_KINDS, STORED_RESOURCE_SCHEMAS, Registry, duplicateKeys, resourceKey, type Resource, type ResourceKind } from '@/lib/registry';
import { lockRegistryForWrite, voidApprovalsOnRegistryChange } from '../approval/registry-binding';
import { appendAudit } from '../audit/audit-log';
import type { Database } from '../platform/db/client';
import { registryResources } from '../platform/db/schema';
import { parseJsonColumn } from '../platform/db/json-column';
import { AppError, notFound, type ErrorDetail } from '../platform/errors';
import { endpointSecretProblems } from '../runs/dispatch/dispatch-secrets';

// The registry is read whole (it is small: tens to hundreds of resources) and written
// one resource at a time or replaced whole by an import, each in one audited transaction.
// Approvals cover the resources a plan routes to, so every write voids the approvals whose
// resources it changed, in the same transaction, holding the registry lock decisions wait on.

export async function getRegistry(db: Database): Promise<Registry> {
  const rows = await db.select().from(registryResources).orderBy(asc(registryResources.kind), asc(registryResources.key));
  const registry: Registry = { agents: [], tools: [], functions: [], llms: [], dsl_workflows: [] };
  for (const row of rows) {
    const kind = row.kind as ResourceKind;
    if (!RESOURCE_KINDS.includes(kind)) continue;
    // Rows written before the schema complexity budget may be over it: still readable
    // (validation then skips their parameter checks with a warning), never a 500.
    // A row no schema accepts (edited by hand) is an integrity error naming it, not a 500.
    const resource = parseJsonColumn(STORED_RESOURCE_SCHEMAS[kind], row.body, { table: 'registry_resources', column: 'body', row: `${row.kind}/${row.key}` });
    (registry[kind] as Resource[]).push(resource as Resource);
  }
  return registry;
}

function rowsOf(registry: Registry) {
  return RESOURCE_KINDS.flatMap((kind) =>
    (registry[kind] as Resource[]).map((resource) => ({ kind, key: resourceKey(resource), body: resource as Record<string, unknown> })),
  );
}

/**
 * Refuses resources whose endpoint names a variable the operator has not listed in
 * PLANGATE_DISPATCH_SECRETS (or one of Plangate's own secrets): 400 naming each field and
 * the rule, before anything is written. The schema (shared with the browser) only checks
 * the name's shape; which names are allowed is this server's configuration.
 */
function refuseUnlistedSecrets(resources: { kind: ResourceKind; resource: Resource; index?: number }[]): void {
  const details: ErrorDetail[] = resources.flatMap(({ kind, resource, index }) =>
    endpointSecretProblems(resource.endpoint).map(({ field, problem }) => ({
      path: `${kind}${index === undefined ? '' : `[${index}]`}.endpoint.${field}`,
      message: `${kind} "${resourceKey(resource).slice(0, 200)}": ${problem}`,
    })),
  );
  if (!details.length) return;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  throw new AppError('bad_request', 400, `endpoint.${details[0].path.split('.endpoint.')[1]} of ${details[0].message}${more}`, details);
}

/**
 * Replaces the whole registry with an imported one (parsed by the caller: the endpoint
 * layer or the server action); refuses duplicates and changes nothing then.
 */
export async function replaceRegistry(db: Database, registry: Registry, actor: string): Promise<Registry> {
  const duplicates = duplicateKeys(registry);
  if (duplicates.length) throw new AppError('bad_request', 400, `The registry names a resource twice: ${duplicates.slice(0, 10).join('; ')}`);
  refuseUnlistedSecrets(RESOURCE_KINDS.flatMap((kind) => (registry[kind] as Resource[]).map((resource, index) => ({ kind, resource, index }))));
  await db.transaction(async (tx) => {
    await lockRegistryForWrite(tx);
    await tx.delete(registryResources);
    const rows = rowsOf(registry);
    if (rows.length) await tx.insert(registryResources).values(rows);
    await voidApprovalsOnRegistryChange(tx, await getRegistry(tx), actor);
    await appendAudit(tx, {
      kind: 'registry_changed',
      actor,
      detail: { action: 'replaced', counts: Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, registry[kind].length])) },
    });
  });
  return registry;
}

export function parseKind(kind: string): ResourceKind {
  if (!(RESOURCE_KINDS as readonly string[]).includes(kind)) {
    throw new AppError('not_found', 404, `No resource kind "${kind.slice(0, 40)}"; the kinds are ${RESOURCE_KINDS.join(', ')}`);
  }
  return kind as ResourceKind;
}

/**
 * Creates or replaces one resource, parsed by the caller with RESOURCE_SCHEMAS[kind] (the
 * route table's body schema takes any object: which schema applies depends on the path);
 * the key in the path must be the resource's own id (or name).
 */
export async function putResource(db: Database, kind: ResourceKind, key: string, resource: Resource, actor: string): Promise<Resource> {
  if (resourceKey(resource) !== key) {
    throw new AppError('bad_request', 400, `The resource is "${resourceKey(resource)}" but the path names "${key.slice(0, 200)}"`);
  }
  refuseUnlistedSecrets([{ kind, resource }]);
  await db.transaction(async (tx) => {
    await lockRegistryForWrite(tx);
    const body = resource as Record<string, unknown>;
    await tx
      .insert(registryResources)
      .values({ kind, key, body })
      .onConflictDoUpdate({ target: [registryResources.kind, registryResources.key], set: { body, updatedAt: new Date() } });
    await voidApprovalsOnRegistryChange(tx, await getRegistry(tx), actor);
    await appendAudit(tx, { kind: 'registry_changed', actor, detail: { action: 'put', resource_kind: kind, key } });
  });
  return resource;
}

export async function deleteResource(db: Database, kind: ResourceKind, key: string, actor: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockRegistryForWrite(tx);
    const deleted = await tx
      .delete(registryResources)
      .where(and(eq(registryResources.kind, kind), eq(registryResources.key, key)))
      .returning({ key: registryResources.key });
    if (!deleted.length) throw notFound(`${kind} "${key.slice(0, 200)}"`);
    await voidApprovalsOnRegistryChange(tx, await getRegistry(tx), actor);
    await appendAudit(tx, { kind: 'registry_changed', actor, detail: { action: 'deleted', resource_kind: kind, key } });
  });
}

const SEED_LOCK_KEY = 7_316_007;

/** Fills an empty registry with the demo resources, once, however many instances start together. */
export async function seedDemoRegistry(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const [{ n }] = await tx.select({ n: count() }).from(registryResources);
    if (n > 0) return false;
    await tx.insert(registryResources).values(rowsOf(Registry.parse(DEMO_REGISTRY)));
    await appendAudit(tx, { kind: 'registry_changed', actor: 'plangate-demo', detail: { action: 'seeded' } });
    return true;
  });
}
