import 'server-only';
import type { PlanDocument } from '@/lib/plan';
import { canonicalJson, sha256Of } from '../audit/digests';

// The server's way to the two hashes a revision is stored with: the content hash
// (lib/plan/hash, over plan, job and subgraphs) and the body digest the audit chain records
// (lib/server/audit/digests, over the whole body, view included). Same definitions, same
// results (a test holds them equal), computed faster for 10 MB plans: RFC 8785 sorts keys,
// and "view" sorts after "job", "plan" and "subgraphs", so the body's canonical JSON is the
// content's with the view appended; one canonicalisation serves both, and node's native
// SHA-256 is ten times faster than the browser-safe one in lib/plan.

/** contentHash(doc), on the server. */
export function serverContentHash(doc: Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>): string {
  return sha256Of(canonicalJson({ plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs }));
}

/** contentHash(document) and bodyDigest(document) from one canonicalisation. */
export function documentHashes(document: PlanDocument): { contentHash: string; bodyHash: string } {
  const content = canonicalJson({ plan: document.plan, job: document.job, subgraphs: document.subgraphs });
  const body = `${content.slice(0, -1)},"view":${canonicalJson(document.view)}}`;
  return { contentHash: sha256Of(content), bodyHash: sha256Of(body) };
}
