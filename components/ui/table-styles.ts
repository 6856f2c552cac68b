// The three looks of a table, so every table of records in the app reads the same:
// `card` a page's own list, `plain` a table inside a panel or card, `dense` many small rows.

export type TableVariant = 'card' | 'plain' | 'dense';

export interface TableStyle {
  /** The box around the table (scrolling, border). */
  frame: string;
  table: string;
  /** The head: its background matters, it stays on top of the rows it scrolls over. */
  head: string;
  headerCell: string;
  body: string;
  row: string;
  cell: string;
}

export const TABLE_STYLES: Record<TableVariant, TableStyle> = {
  card: {
    frame: 'rounded-lg border border-slate-200 bg-white shadow-sm',
    table: 'w-full text-left text-sm',
    head: 'bg-slate-50 text-xs uppercase tracking-wide text-slate-600',
    headerCell: 'px-4 py-3 font-medium',
    body: 'divide-y divide-slate-100',
    row: '',
    cell: 'px-4 py-3',
  },
  plain: {
    frame: '',
    table: 'w-full text-left text-xs',
    head: 'bg-white text-slate-600',
    headerCell: 'py-1 pr-3 font-medium',
    body: 'divide-y divide-slate-100',
    row: '',
    cell: 'py-1 pr-3',
  },
  dense: {
    frame: 'rounded border border-slate-200',
    table: 'w-full border-collapse text-left text-xs',
    head: 'bg-slate-50 text-slate-600',
    headerCell: 'border-b border-slate-200 px-2 py-1 font-semibold',
    body: '',
    row: 'border-b border-slate-100',
    cell: 'px-2 py-1',
  },
};
