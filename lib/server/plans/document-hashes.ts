import 'server-only';
import { hashEnvelope, type HashVersion, type HashedContent, type PlanDocument, type PlannerTask } from '@/lib/plan';
import { bodyDigest, canonicalJson, sha256Of } from '../audit/digests';

// The server's way to the hashes a revision is stored with: the content hash (lib/plan/hash)
// and the body digest the audit chain records. Same definitions, same results (a test holds
// them equal), computed with node's native SHA-256, ten times faster than the browser-safe one.
//
// Version 2: the content hash is taken over the hash envelope (each task replaced by its own
// hash) and the body digest over the envelope with the view, so a save that changes one task
// hashes that task and the envelope, never the other tasks. RFC 8785 sorts keys and "view"
// sorts last, so the body's canonical JSON is the content's with the view appended.

export interface RevisionHashes {
  contentHash: string;
  /** What the audit chain records of the stored revision (view data included). */
  bodyHash: string;
  /** One per task, in plan order: how the revision stores its tasks. */
  taskHashes: string[];
}

/** taskHash(task), on the server. */
export function serverTaskHash(task: PlannerTask): string {
  return sha256Of(canonicalJson(task));
}

/** The version-2 hashes of a document whose task hashes are already known. */
export function hashesFromTaskHashes(document: HashedContent & Pick<PlanDocument, 'view'>, taskHashes: string[]): RevisionHashes {
  const content = canonicalJson(hashEnvelope(document, taskHashes));
  const body = `${content.slice(0, -1)},"view":${canonicalView(document.view)}}`;
  return { contentHash: sha256Of(content), bodyHash: sha256Of(body), taskHashes };
}

/**
 * canonicalJson(view), written directly. Every position is {x, y} of finite numbers (the
 * stored view's schema), so its RFC 8785 form is the keys in UTF-16 order (what sort() does)
 * and the numbers as JSON writes them. The generic canonicaliser spends 50–100 ms on a
 * 20,000-task plan's positions, which every save of it hashes; a property test holds the
 * two equal.
 */
export function canonicalView(view: PlanDocument['view']): string {
  // Audit verify hashes stored bodies as they are, unparsed: anything but the schema's exact
  // shape (an extra key written by hand, say) takes the generic way, so it changes the digest.
  const viewKeys = Object.keys(view);
  if (viewKeys.length !== 2 || !('positions' in view) || !Array.isArray(view.collapsed) || typeof view.positions !== 'object' || view.positions === null) return canonicalJson(view);
  const { positions } = view;
  const keys = Object.keys(positions).sort();
  const entries = new Array<string>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const position = positions[keys[i]!] as unknown as Record<string, unknown> | null;
    if (position === null || typeof position !== 'object' || Object.keys(position).length !== 2 || !Number.isFinite(position.x) || !Number.isFinite(position.y)) {
      return canonicalJson(view);
    }
    entries[i] = `${JSON.stringify(keys[i])}:{"x":${JSON.stringify(position.x)},"y":${JSON.stringify(position.y)}}`;
  }
  return `{"collapsed":${canonicalJson(view.collapsed)},"positions":{${entries.join(',')}}}`;
}

/** Today's (version 2) hashes of a whole document. */
export function documentHashes(document: PlanDocument): RevisionHashes {
  return hashesFromTaskHashes(document, document.plan.planned_tasks.map(serverTaskHash));
}

/** contentHash(doc, version), on the server: how a stored revision is verified. */
export function serverContentHash(doc: HashedContent, version: HashVersion): string {
  if (version === 1) return sha256Of(canonicalJson({ plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs }));
  return sha256Of(canonicalJson(hashEnvelope(doc, doc.plan.planned_tasks.map(serverTaskHash))));
}

/** The body digest the audit chain recorded for a revision of `version`, from its whole document. */
export function revisionBodyDigest(document: PlanDocument, version: HashVersion): string {
  return version === 1 ? bodyDigest(document) : documentHashes(document).bodyHash;
}

/** The hash version a stored revision row declares; anything but 2 is the original definition. */
export function hashVersionOf(row: { hashVersion: number }): HashVersion {
  return row.hashVersion === 2 ? 2 : 1;
}
