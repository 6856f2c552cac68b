// How a table's rows are put in order by one column. Pure, so the order a user gets from a
// header click is tested without a browser.

/** A cell's value to sort by; null (unknown, not yet) sorts after every value, both ways. */
export type SortValue = string | number | null;

export interface SortState {
  column: string;
  descending: boolean;
}

export type AriaSort = 'ascending' | 'descending' | 'none';

/** The next state after a click on `column`'s header: a new column sorts ascending, the same one flips. */
export function nextSort(current: SortState | null, column: string): SortState {
  return { column, descending: current?.column === column ? !current.descending : false };
}

/** What a header announces: only the sorted column says its direction. */
export function ariaSort(current: SortState | null, column: string): AriaSort {
  if (current?.column !== column) return 'none';
  return current.descending ? 'descending' : 'ascending';
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Orders two values ascending: numbers by size, text as a reader would (r2 before r10). */
export function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/**
 * The rows in the order `sort` asks for; ties keep the given order (the server's), so sorting by a
 * column of repeats never shuffles them. Without a sort, the rows as given.
 */
export function sortRows<Row>(rows: readonly Row[], sort: SortState | null, valueOf: (row: Row, column: string) => SortValue): Row[] {
  if (!sort) return [...rows];
  const sign = sort.descending ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, value: valueOf(row, sort.column) }))
    .sort((a, b) => {
      // Unknown values stay last whichever way the column is sorted.
      if (a.value === null || b.value === null) return compareValues(a.value, b.value) || a.index - b.index;
      return sign * compareValues(a.value, b.value) || a.index - b.index;
    })
    .map((entry) => entry.row);
}
