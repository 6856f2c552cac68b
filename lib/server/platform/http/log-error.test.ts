import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_LOGGED_ERROR_CHARS, describeErrorForLog } from './log-error';
import { route } from './route';

afterEach(() => vi.restoreAllMocks());

describe('error logs', () => {
  it('cut a huge message (a failed query with its parameters) and leave out the error\'s own fields', () => {
    const error = Object.assign(new Error(`Failed query: insert into dry_runs values ($1)\nparams: ${'x'.repeat(5_000_000)}`), { params: ['y'.repeat(1_000_000)] });
    const text = describeErrorForLog(error);
    expect(text.length).toBeLessThanOrEqual(MAX_LOGGED_ERROR_CHARS + 100);
    expect(text).toMatch(/^Error: Failed query: insert into dry_runs/);
    expect(text).not.toContain('yyyy');
    expect(text).toMatch(/\n\s+at /); // stack frames are kept
  });

  it('follow a cause chain, and describe a thrown non-error', () => {
    const error = new Error('outer', { cause: new TypeError('inner') });
    expect(describeErrorForLog(error)).toMatch(/Error: outer[\s\S]*caused by TypeError: inner/);
    expect(describeErrorForLog('z'.repeat(100_000)).length).toBeLessThan(1_200);
  });

  it('of a route name the method and path only, never the query or body', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    const handler = route(async () => {
      throw new Error(`boom ${'b'.repeat(100_000)}`);
    });
    const response = await handler(new Request('http://localhost/api/validate?secret=s3cr3t', { method: 'POST', body: 'body-secret' }), {});
    expect(response.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^\[plangate\] POST \/api\/validate failed: Error: boom b+… \([\d,]+ more characters\)/);
    expect(logged[0]).not.toMatch(/s3cr3t|body-secret/);
    expect(logged[0].length).toBeLessThan(MAX_LOGGED_ERROR_CHARS + 400);
  });
});
