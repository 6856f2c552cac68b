import { describe, expect, it } from 'vitest';
import type { PlanResponse } from '@/lib/api/schemas';
import { etagged, ifNoneMatchMatches, planEtag } from './etag';

const plan = {
  id: 'p1',
  title: 'T',
  status: 'draft',
  revision: 2,
  head_revision: 2,
  content_hash: 'sha256:abc',
  author: 'a',
  message: '',
  created_at: '2026-01-01T00:00:00.000Z',
} as PlanResponse;

const request = (ifNoneMatch?: string) => new Request('http://x/api/plans/p1', { headers: ifNoneMatch ? { 'If-None-Match': ifNoneMatch } : {} });

describe('plan ETags', () => {
  it('is a strong tag that changes with the revision, the content and the status', () => {
    const tag = planEtag(plan);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(planEtag({ ...plan })).toBe(tag);
    expect(planEtag({ ...plan, status: 'in_review' })).not.toBe(tag);
    expect(planEtag({ ...plan, revision: 3 })).not.toBe(tag);
    expect(planEtag({ ...plan, head_revision: 3 })).not.toBe(tag);
    expect(planEtag({ ...plan, content_hash: 'sha256:def' })).not.toBe(tag);
  });

  it('matches If-None-Match lists, weak forms of the tag and *', () => {
    const tag = planEtag(plan);
    expect(ifNoneMatchMatches(null, tag)).toBe(false);
    expect(ifNoneMatchMatches('"other"', tag)).toBe(false);
    expect(ifNoneMatchMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches(`W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchMatches('*', tag)).toBe(true);
  });

  it('answers 304 with no body to a matching tag and the JSON with its tag otherwise', async () => {
    const tag = planEtag(plan);
    const fresh = etagged(request(), JSON.stringify(plan), tag);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('ETag')).toBe(tag);
    expect(fresh.headers.get('Content-Type')).toBe('application/json');
    expect(await fresh.json()).toEqual(plan);
    const cached = etagged(request(tag), JSON.stringify(plan), tag);
    expect(cached.status).toBe(304);
    expect(cached.headers.get('ETag')).toBe(tag);
    expect(await cached.text()).toBe('');
  });
});
