import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { PlanDocument } from '@/lib/plan';

// The server's way to the two hashes a revision is stored with: the content hash
// (lib/plan/hash, over plan, job and subgraphs) and the body digest the audit chain records
// (lib/server/audit/digests, over the whole body, view included). Same definitions, same
// results (a test holds them equal), computed faster for 10 MB plans: RFC 8785 sorts keys,
// and "view" sorts after "job", "plan" and "subgraphs", so the body's canonical JSON is the
// content's with the view appended; one canonicalisation serves both, and node's native
// SHA-256 is ten times faster than the browser-safe one in lib/plan.

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

function canonical(value: unknown, what: string): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error(`${what}: the document could not be serialised`);
  return text;
}

/** contentHash(doc), on the server. */
export function serverContentHash(doc: Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>): string {
  return sha256(canonical({ plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs }, 'serverContentHash'));
}

/** contentHash(document) and bodyDigest(document) from one canonicalisation. */
export function documentHashes(document: PlanDocument): { contentHash: string; bodyHash: string } {
  const content = canonical({ plan: document.plan, job: document.job, subgraphs: document.subgraphs }, 'documentHashes');
  const body = `${content.slice(0, -1)},"view":${canonical(document.view, 'documentHashes')}}`;
  return { contentHash: sha256(content), bodyHash: sha256(body) };
}
