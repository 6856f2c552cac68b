import type { ReactNode } from 'react';
import type { AriaSort } from './table-sort';
import { TABLE_STYLES, type TableVariant } from './table-styles';

export interface DataColumn {
  /** Names the column to sort by and in a row's sort values. */
  id: string;
  /** The header's text: also the column's accessible name, which tests and screen readers use. */
  header: ReactNode;
  /** A header button sorts by this column; its rows then carry a sort value for it. */
  sortable?: boolean;
  /** Figures align right, so their digits line up. */
  numeric?: boolean;
  /** Extra classes of this column's header cell and its cells (width, colour, font). */
  className?: string;
  /** Its cells name their rows (th scope="row"), as a username or a key does; give them a font weight (a th is bold). */
  rowHeader?: boolean;
}

export interface HeadSort {
  toggle: (column: string) => void;
  ariaSortOf: (column: string) => AriaSort;
}

const ARROW: Record<AriaSort, string> = { ascending: '▲', descending: '▼', none: '' };

/**
 * The header row, kept on top while the rows scroll under it. A sortable column's header is a
 * button (so Tab reaches it, Enter and Space sort), and the header cell carries aria-sort.
 */
export function DataTableHead({ columns, variant, sort }: { columns: readonly DataColumn[]; variant: TableVariant; sort: HeadSort | null }) {
  const style = TABLE_STYLES[variant];
  return (
    <thead className={`sticky top-0 z-10 ${style.head}`}>
      <tr>
        {columns.map((column) => {
          const sortable = column.sortable && sort;
          const direction = sortable ? sort.ariaSortOf(column.id) : undefined;
          return (
            <th key={column.id} scope="col" aria-sort={direction} className={`${style.headerCell} ${column.numeric ? 'text-right' : ''} ${column.className ?? ''}`}>
              {sortable ? (
                // Buttons do not inherit text-transform: the header's case is kept by hand.
                <button type="button" className="rounded-sm [text-transform:inherit] hover:underline" onClick={() => sort.toggle(column.id)}>
                  {column.header}
                  <span aria-hidden> {ARROW[direction ?? 'none']}</span>
                </button>
              ) : (
                column.header
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
