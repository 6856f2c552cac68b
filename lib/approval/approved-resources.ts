import canonicalize from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { taskTarget, type PlannerTask } from '@/lib/plan';
import { Registry, RESOURCE_KINDS, resourceKey, type Resource, type ResourceKind } from '@/lib/registry';

// What an approval covers beyond the plan document: the registry resources its tasks are
// routed to, as the approver saw them. Execution depends on them (a tool's schema, a DSL
// workflow's steps), so a change to any of them makes the approval stale.
//
// A snapshot is keyed by the plan's *targets* ("tool:http_get"), not only by the resources
// found: a target that resolved to nothing when approved and resolves to a new resource
// later changes what would run just as much as an edited one.

/** The registry kinds a target of each execution kind can resolve to. */
const KINDS_FOR: Record<string, readonly ResourceKind[]> = {
  tool: ['tools', 'functions'],
  agent: ['agents'],
  llm: ['llms'],
  dsl: ['dsl_workflows'],
};

export const ResourceSnapshot = z.strictObject({
  /** Every "kind:id" the plan routes to, lower-cased, sorted. */
  targets: z.array(z.string()),
  /** The registry resources those targets resolve to, by registry kind, sorted by key. */
  definitions: Registry,
});
export type ResourceSnapshot = z.infer<typeof ResourceSnapshot>;

/** The target a task is routed to as "kind:id", or null when it names none. */
function targetKey(task: PlannerTask): string | null {
  const target = taskTarget(task);
  return target && `${target.kind}:${target.id.toLowerCase()}`;
}

/** Resources match their target case-insensitively; agents by name too (as validation matches them). */
function matches(kind: ResourceKind, resource: Resource, id: string): boolean {
  if (resourceKey(resource).toLowerCase() === id) return true;
  return kind === 'agents' && 'name' in resource && typeof resource.name === 'string' && resource.name.toLowerCase() === id;
}

/** Resolves `targets` against `registry`: the snapshot an approval binds or is compared with. */
export function resolveTargets(targets: Iterable<string>, registry: Registry): ResourceSnapshot {
  const sorted = [...new Set(targets)].sort();
  const definitions: Registry = { agents: [], tools: [], functions: [], llms: [], dsl_workflows: [] };
  for (const kind of RESOURCE_KINDS) {
    const wanted = sorted
      .map((target) => target.split(':'))
      .filter(([execution]) => KINDS_FOR[execution]?.includes(kind))
      .map(([, ...id]) => id.join(':'));
    if (!wanted.length) continue;
    const found = (registry[kind] as Resource[]).filter((resource) => wanted.some((id) => matches(kind, resource, id)));
    (definitions as Record<ResourceKind, Resource[]>)[kind] = found.sort((a, b) => resourceKey(a).localeCompare(resourceKey(b)));
  }
  return { targets: sorted, definitions };
}

/** The snapshot of the resources `tasks` route to in `registry`. */
export function snapshotResources(tasks: readonly PlannerTask[], registry: Registry): ResourceSnapshot {
  return resolveTargets(
    tasks.map(targetKey).filter((target): target is string => target !== null),
    registry,
  );
}

/** `sha256:` + hex SHA-256 of the RFC 8785 canonical JSON of the snapshot (targets and definitions). */
export function resourcesHash(snapshot: ResourceSnapshot): string {
  const canonical = canonicalize({ targets: snapshot.targets, definitions: snapshot.definitions });
  if (canonical === undefined) throw new Error('resourcesHash: the snapshot could not be serialised');
  return `sha256:${bytesToHex(sha256(utf8ToBytes(canonical)))}`;
}

export interface ResourceChange {
  kind: ResourceKind;
  key: string;
  change: 'added' | 'changed' | 'removed';
  before: Resource | null;
  after: Resource | null;
}

/** What differs between an approved snapshot and the same targets resolved today. */
export function diffSnapshots(approved: ResourceSnapshot, current: ResourceSnapshot): ResourceChange[] {
  const changes: ResourceChange[] = [];
  for (const kind of RESOURCE_KINDS) {
    const before = new Map((approved.definitions[kind] as Resource[]).map((r) => [resourceKey(r), r]));
    const after = new Map((current.definitions[kind] as Resource[]).map((r) => [resourceKey(r), r]));
    for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const was = before.get(key) ?? null;
      const now = after.get(key) ?? null;
      if (was && now && canonicalize(was) === canonicalize(now)) continue;
      changes.push({ kind, key, change: !was ? 'added' : !now ? 'removed' : 'changed', before: was, after: now });
    }
  }
  return changes;
}
