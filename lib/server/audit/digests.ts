import 'server-only';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

// What the audit chain records about rows that live outside it: a revision's stored body
// and a review decision. `audit verify` and the hand-off recompute these from the rows and
// compare them with the chain, so a hand-edited body or a forged review row is caught.

/** RFC 8785 canonical JSON of `value`. */
export function canonicalJson(value: unknown): string {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new Error('canonicalJson: the value could not be serialised');
  return canonical;
}

/** "sha256:" + hex SHA-256 of `text` (node's native hash: bodies run to megabytes, where it is ten times faster). */
export function sha256Of(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

function digest(value: unknown): string {
  return sha256Of(canonicalJson(value));
}

/** The whole stored revision body (view data included: it is stored, so it is covered). */
export function bodyDigest(body: unknown): string {
  return digest(body);
}

export interface ReviewFacts {
  id: number;
  planId: string;
  revision: number;
  contentHash: string;
  decision: string;
  reviewer: string;
  comment: string;
  resourcesHash: string | null;
}

/** The immutable facts of one review decision. */
export function reviewDigest(review: ReviewFacts): string {
  return digest({
    id: review.id,
    plan_id: review.planId,
    revision: review.revision,
    content_hash: review.contentHash,
    decision: review.decision,
    reviewer: review.reviewer,
    comment: review.comment,
    resources_hash: review.resourcesHash,
  });
}
