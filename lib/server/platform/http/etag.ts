import 'server-only';
import { createHash } from 'node:crypto';
import type { PlanResponse } from '@/lib/api/schemas';

// Conditional GETs for plan reads (RFC 9110 §8.8.3, §13.1.2): a client that already holds
// a revision sends its ETag in If-None-Match and gets an empty 304 instead of the plan
// again, which for a large plan is most of the bytes.

/**
 * A strong ETag for a plan read. A revision is immutable, so (plan, revision, content hash)
 * fixes the document; the rest of the response that can change without a new revision
 * (status, head revision, title) is hashed in too, so a submitted or approved plan's head
 * read gets a new tag.
 */
export function planEtag(plan: Pick<PlanResponse, 'id' | 'revision' | 'content_hash' | 'status' | 'head_revision' | 'title' | 'author' | 'message' | 'created_at'>): string {
  const varying = [plan.id, plan.revision, plan.content_hash, plan.status, plan.head_revision, plan.title, plan.author, plan.message, plan.created_at];
  return `"${createHash('sha256').update(JSON.stringify(varying)).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether an If-None-Match header matches `etag`: `*`, or a comma-separated list of tags
 * compared weakly (a `W/` prefix is ignored), as the RFC asks for this header.
 */
export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const want = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === want);
}

/**
 * The JSON answer (as text) with its ETag, or an empty 304 when the client's If-None-Match
 * already names it. `no-cache` lets clients store it but makes them ask again each time,
 * since the head revision and status move.
 */
export function etagged(request: Request, jsonText: string, etag: string): Response {
  const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
  if (ifNoneMatchMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(jsonText, { headers: { ...headers, 'Content-Type': 'application/json' } });
}
