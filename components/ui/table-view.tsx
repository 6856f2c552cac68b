import { Fragment, type ReactElement, type ReactNode } from 'react';
import { DataTableHead, type DataColumn, type HeadSort } from './data-table-head';
import { TableFrame, type TableScroll } from './table-frame';
import type { SortValue } from './table-sort';
import { TABLE_STYLES, type TableVariant } from './table-styles';

export type { DataColumn } from './data-table-head';

interface RowBase {
  key: string;
  /** The values the sortable columns sort by, by column id; a missing one sorts last. */
  sortValues?: Readonly<Record<string, SortValue>>;
}

/**
 * A row: its cells, one per column, rendered wherever the caller is (a server page passes them
 * ready-made); or a whole row element of its own for a row with state (an editor opening under it).
 */
export type DataRow = RowBase & ({ cells: readonly ReactNode[]; className?: string } | { element: ReactElement });

export interface TableViewProps {
  columns: readonly DataColumn[];
  rows: readonly DataRow[];
  /** The table's name (a caption names a table for screen readers and tests alike). */
  caption?: ReactNode;
  /** Show the caption on screen; by default only screen readers read it. */
  captionVisible?: boolean;
  /** The name when there is no caption. */
  label?: string;
  /** Said in the table when there are no rows. */
  empty?: ReactNode;
  variant?: TableVariant;
  scroll?: TableScroll;
  className?: string;
}

/**
 * A table of records as it looks: the frame, a caption or label that names it, a header that stays
 * on top, the rows (links stay links) or an empty state. No state of its own, so a server page
 * renders it without shipping its rows to the browser twice; DataTable adds sorting.
 */
export function TableView({
  columns,
  rows,
  caption,
  captionVisible = false,
  label,
  empty = 'Nothing here yet.',
  variant = 'card',
  scroll,
  className,
  sort = null,
}: TableViewProps & { sort?: HeadSort | null }) {
  const style = TABLE_STYLES[variant];
  return (
    <TableFrame variant={variant} scroll={scroll} className={className}>
      <table className={style.table} aria-label={caption === undefined ? label : undefined}>
        {caption !== undefined && <caption className={captionVisible ? 'px-4 py-2 text-left text-xs text-slate-600' : 'sr-only'}>{caption}</caption>}
        <DataTableHead columns={columns} variant={variant} sort={sort} />
        <tbody className={style.body}>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-6 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) =>
              'element' in row ? (
                <Fragment key={row.key}>{row.element}</Fragment>
              ) : (
                <tr key={row.key} className={`${style.row} ${row.className ?? ''}`}>
                  {row.cells.map((cell, index) => {
                    const column = columns[index];
                    const classes = `${style.cell} ${column?.numeric ? 'text-right tabular-nums' : ''} ${column?.className ?? ''}`;
                    return column?.rowHeader ? (
                      <th key={column.id} scope="row" className={`${classes} text-left`}>
                        {cell}
                      </th>
                    ) : (
                      <td key={column?.id ?? index} className={classes}>
                        {cell}
                      </td>
                    );
                  })}
                </tr>
              ),
            )
          )}
        </tbody>
      </table>
    </TableFrame>
  );
}
