'use client';

import type { SortState, SortValue } from './table-sort';
import { TableView, type DataRow, type TableViewProps } from './table-view';
import { useTableSort } from './use-table-sort';

export type { DataColumn, DataRow } from './table-view';

const valueOf = (row: DataRow, column: string): SortValue => row.sortValues?.[column] ?? null;

/**
 * A table of records the reader can sort: a sortable column's header is a button (Tab reaches it,
 * Enter or Space sorts, again reverses) and says its order in aria-sort. A page of a list the
 * server orders is not sorted here (that would order one page only): it uses TableView.
 */
export function DataTable({ initialSort, rows, ...view }: TableViewProps & { initialSort?: SortState }) {
  const sort = useTableSort(rows, valueOf, initialSort ?? null);
  return <TableView {...view} rows={sort.rows} sort={sort} />;
}
