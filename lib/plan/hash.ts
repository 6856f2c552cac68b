import canonicalize from 'canonicalize';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { PlanDocument } from './schema';

/**
 * SHA-256 over the RFC 8785 canonical JSON of everything that changes what would run:
 * tasks, job and subgraphs. View data (positions, collapsed groups) is left out so moving a
 * node never voids an approval. Synchronous and identical in browser and server.
 */
export function contentHash(doc: Pick<PlanDocument, 'plan' | 'job' | 'subgraphs'>): string {
  const canonical = canonicalize({ plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs });
  if (canonical === undefined) throw new Error('contentHash: the plan could not be serialised');
  return `sha256:${bytesToHex(sha256(utf8ToBytes(canonical)))}`;
}
