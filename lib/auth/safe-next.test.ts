import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('keeps paths on this site, with their query and hash', () => {
    expect(safeNext('/plans/abc/review?x=1#top')).toBe('/plans/abc/review?x=1#top');
    expect(safeNext('/')).toBe('/');
  });

  it('sends anything that would leave the site to the home page', () => {
    for (const next of ['//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'https://evil.example', 'evil', '', ['/a', '/b'], undefined]) {
      expect(safeNext(next), JSON.stringify(next)).toBe('/');
    }
  });
});
