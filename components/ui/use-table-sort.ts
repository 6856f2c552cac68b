'use client';

import { useCallback, useMemo, useState } from 'react';
import { ariaSort, nextSort, sortRows, type AriaSort, type SortState, type SortValue } from './table-sort';

export interface TableSort<Row> {
  rows: Row[];
  sort: SortState | null;
  /** A header's click (or Enter, Space: it is a button). */
  toggle: (column: string) => void;
  ariaSortOf: (column: string) => AriaSort;
}

/** A table's sort state and its rows in that order; `initial` null keeps the given order until a header is used. */
export function useTableSort<Row>(rows: readonly Row[], valueOf: (row: Row, column: string) => SortValue, initial: SortState | null = null): TableSort<Row> {
  const [sort, setSort] = useState<SortState | null>(initial);
  const sorted = useMemo(() => sortRows(rows, sort, valueOf), [rows, sort, valueOf]);
  const toggle = useCallback((column: string) => setSort((current) => nextSort(current, column)), []);
  const ariaSortOf = useCallback((column: string) => ariaSort(sort, column), [sort]);
  return { rows: sorted, sort, toggle, ariaSortOf };
}
