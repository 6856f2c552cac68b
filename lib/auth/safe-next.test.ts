import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('keeps paths on this site, with their query and hash', () => {
    expect(safeNext('/plans/abc/review?x=1#top')).toBe('/plans/abc/review?x=1#top');
    expect(safeNext('/')).toBe('/');
    expect(safeNext('/plans/../reviews')).toBe('/reviews');
    expect(safeNext('/reviews?next=//evil.example')).toBe('/reviews?next=//evil.example');
  });

  it('sends anything that would leave the site to the home page', () => {
    for (const next of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example',
      'evil',
      '',
      ['/a', '/b'],
      undefined,
    ]) {
      expect(safeNext(next), JSON.stringify(next)).toBe('/');
    }
  });

  it('never returns a path that resolving turned into another host', () => {
    for (const next of ['/..//evil', '/..//evil.example/x', '/.//evil', '/a/../..//evil', '/..\\/evil', '/../\\evil', '/%2e%2e//evil', '/.%2e//evil']) {
      const safe = safeNext(next);
      expect(safe, JSON.stringify(next)).not.toMatch(/^\/[/\\]/);
      expect(new URL(safe, 'https://plangate.example').host, JSON.stringify(next)).toBe('plangate.example');
    }
    expect(safeNext('/..//evil')).toBe('/');
  });
});
