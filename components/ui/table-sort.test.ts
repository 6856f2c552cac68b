import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ariaSort, compareValues, nextSort, sortRows, type SortState, type SortValue } from './table-sort';

interface Row {
  id: number;
  value: SortValue;
}

const value = fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'B', 'r2', 'r10', 'b'));
const rows = fc.array(value, { maxLength: 30 }).map((values) => values.map((v, id): Row => ({ id, value: v })));
const of = (row: Row) => row.value;

describe('sorting a table by a header', () => {
  it('a first click sorts ascending, the next reverses, another column starts ascending again', () => {
    const once = nextSort(null, 'start');
    expect(once).toEqual({ column: 'start', descending: false });
    const twice = nextSort(once, 'start');
    expect(twice).toEqual({ column: 'start', descending: true });
    expect(nextSort(twice, 'start')).toEqual({ column: 'start', descending: false });
    expect(nextSort(twice, 'end')).toEqual({ column: 'end', descending: false });
  });

  it('only the sorted column announces a direction', () => {
    const sort: SortState = { column: 'start', descending: true };
    expect(ariaSort(sort, 'start')).toBe('descending');
    expect(ariaSort(sort, 'end')).toBe('none');
    expect(ariaSort(null, 'start')).toBe('none');
  });

  it('text sorts as a reader expects: case aside, numbers within it by size', () => {
    const texts = ['r10', 'b', 'r2', 'A'].map((v, id) => ({ id, value: v }));
    expect(sortRows(texts, { column: 'x', descending: false }, of).map((r) => r.value)).toEqual(['A', 'b', 'r2', 'r10']);
  });

  it('without a sort the rows keep their own order', () => {
    fc.assert(
      fc.property(rows, (given) => {
        expect(sortRows(given, null, of)).toEqual(given);
      }),
    );
  });

  it('sorting shows every row once, in order, unknown values last both ways, ties in their given order', () => {
    fc.assert(
      fc.property(rows, fc.boolean(), (given, descending) => {
        const sorted = sortRows(given, { column: 'x', descending }, of);
        expect([...sorted].sort((a, b) => a.id - b.id)).toEqual(given);
        const known = sorted.filter((r) => r.value !== null);
        expect(sorted.slice(known.length).every((r) => r.value === null)).toBe(true);
        for (let i = 1; i < known.length; i++) {
          const order = compareValues(known[i - 1].value, known[i].value) * (descending ? -1 : 1);
          expect(order).toBeLessThanOrEqual(0);
          if (order === 0) expect(known[i - 1].id).toBeLessThan(known[i].id);
        }
      }),
    );
  });

  it('descending is ascending reversed, apart from ties and unknown values', () => {
    fc.assert(
      fc.property(rows, (given) => {
        const up = sortRows(given, { column: 'x', descending: false }, of).filter((r) => r.value !== null);
        const down = sortRows(given, { column: 'x', descending: true }, of).filter((r) => r.value !== null);
        expect(down.map((r) => String(r.value).toLowerCase())).toEqual(up.map((r) => String(r.value).toLowerCase()).reverse());
      }),
    );
  });
});
