import canonicalize from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { PlanDocument, PlannerTask } from './schema';

// The content hash covers everything that changes what would run: tasks, job and subgraphs.
// View data (positions, collapsed groups) is left out so moving a node never voids an
// approval. Synchronous and identical in browser and server.
//
// Version 2 (every revision written since hash versions exist) hashes each task on its own
// and the plan over those task hashes, so a save that changes one task hashes one task, and
// tasks can be stored once by hash. Version 1 (one hash over the whole canonical document)
// is kept so revisions approved under it still verify. A revision records its version.

export const HASH_VERSION = 2;
export type HashVersion = 1 | 2;

/** The content a hash covers. */
export type HashedContent = Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>;

function sha256Text(text: string): string {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`;
}

function canonical(value: unknown, what: string): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error(`contentHash: the ${what} could not be serialised`);
  return text;
}

/** SHA-256 of one task's RFC 8785 canonical JSON. */
export function taskHash(task: PlannerTask): string {
  return sha256Text(canonical(task, 'task'));
}

/**
 * What a version-2 hash is taken over: the content with each task replaced by its task hash,
 * in plan order, and the version itself. An executor rebuilds it from the hand-off document.
 */
export function hashEnvelope(content: HashedContent, taskHashes: readonly string[]) {
  return { hash_version: 2 as const, job: content.job, plan: { ...content.plan, planned_tasks: taskHashes }, subgraphs: content.subgraphs };
}

/** The content hash of `doc` under `version` (today's by default). */
export function contentHash(doc: HashedContent, version: HashVersion = HASH_VERSION): string {
  if (version === 1) return sha256Text(canonical({ plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs }, 'plan'));
  return sha256Text(canonical(hashEnvelope(doc, doc.plan.planned_tasks.map(taskHash)), 'plan'));
}
