import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPages, pagesOf } from './revision-pages';

// Pages are how a revision's references are stored: joined back they must be exactly the
// references and positions they were made from, and a change must leave the other pages as
// they were, or a one-task save would write the whole plan again.

const ids = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const hashOf = (id: string, version = 0) => `${id}#${version}`.padEnd(64, '0');
const positionsOf = (taskIds: string[]) => Object.fromEntries(taskIds.map((id, i) => [id, { x: i, y: -i }]));

function pageHashes(taskIds: string[], taskHashes = taskIds.map((id) => hashOf(id)), positions = positionsOf(taskIds)) {
  return new Set(pagesOf(taskIds, taskHashes, positions).pages.map((page) => page.hash));
}

const newPages = (before: Set<string>, after: Set<string>) => [...after].filter((hash) => !before.has(hash)).length;

describe('pages of task references', () => {
  it('join back into the references and positions they were made from, the rest kept apart', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 600 }), fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 5 }), (taskIds, extra) => {
        const taskHashes = taskIds.map((id) => hashOf(id));
        const placed = taskIds.filter((_, i) => i % 3 !== 0);
        const others = Object.fromEntries(extra.filter((key) => !taskIds.includes(key)).map((key) => [key, { x: 1, y: 2 }]));
        const { pages, otherPositions } = pagesOf(taskIds, taskHashes, { ...positionsOf(placed), ...others });
        expect(joinPages(pages)).toEqual({ taskIds, taskHashes, positions: positionsOf(placed) });
        expect(otherPositions).toEqual(others);
        for (const page of pages) expect(page.taskIds.length).toBeLessThanOrEqual(1_024);
      }),
    );
  });

  it('holds 20,000 tasks in pages of about 128, each stored once by its hash', () => {
    const { pages } = pagesOf(ids(20_000), ids(20_000).map((id) => hashOf(id)), {});
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.length).toBeLessThan(250);
    expect(new Set(pages.map((page) => page.hash)).size).toBe(pages.length);
  });

  // 4,000 tasks are about 30 pages, so an edit anywhere has pages on both sides to leave alone;
  // a bigger plan only adds pages that behave the same, at seconds of CPU per run.
  it('rewrite one page for an edit or a drag, and at most three for an insertion or a removal', { timeout: 120_000 }, () => {
    const taskIds = ids(4_000);
    const before = pageHashes(taskIds);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: taskIds.length - 1 }), (at) => {
        const edited = taskIds.map((id, i) => hashOf(id, i === at ? 1 : 0));
        expect(newPages(before, pageHashes(taskIds, edited))).toBe(1);
        const dragged = { ...positionsOf(taskIds), [taskIds[at]!]: { x: -1, y: -1 } };
        expect(newPages(before, pageHashes(taskIds, undefined, dragged))).toBe(1);
        const inserted = [...taskIds.slice(0, at), 'new-task', ...taskIds.slice(at)];
        expect(newPages(before, pageHashes(inserted, undefined, positionsOf(taskIds)))).toBeLessThanOrEqual(3);
        const removed = taskIds.filter((_, i) => i !== at);
        expect(newPages(before, pageHashes(removed, undefined, positionsOf(taskIds)))).toBeLessThanOrEqual(3);
      }),
      { numRuns: 25 },
    );
  });

  it('bound the pages when ids are chosen to end or never end a page', () => {
    const taskIds = ids(5_000);
    const sizes = pagesOf(taskIds, taskIds, {}).pages.map((page) => page.taskIds.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1_024);
    expect(Math.min(...sizes.slice(0, -1))).toBeGreaterThanOrEqual(16);
  });
});
