import Link from '@/components/ui/link';
import { TableView, type DataColumn } from '@/components/ui/table-view';
import { RelativeTime } from './relative-time';

export interface QueueRow {
  id: string;
  title: string;
  revision: number;
  who: string | null;
  since: Date;
}

/** Plans waiting for a review, each linking to its review page: who sent it and since when. */
export function ReviewQueueTable({ caption, whoLabel, sinceLabel, rows, now }: { caption: string; whoLabel: string; sinceLabel: string; rows: QueueRow[]; now: number }) {
  // The rows are one page of a list the server orders, so sorting them here would mislead.
  const columns: DataColumn[] = [
    { id: 'plan', header: 'Plan' },
    { id: 'revision', header: 'Revision', className: 'tabular-nums' },
    { id: 'who', header: whoLabel, className: 'text-slate-600' },
    { id: 'since', header: sinceLabel, className: 'text-slate-600' },
  ];
  return (
    <TableView
      caption={caption}
      columns={columns}
      empty="No plans are waiting."
      rows={rows.map((row) => ({
        key: row.id,
        cells: [
          <Link key="plan" href={`/plans/${row.id}/review`} className="font-medium text-brand-700 hover:underline">
            {row.title}
          </Link>,
          `r${row.revision}`,
          row.who ?? '—',
          <RelativeTime key="since" iso={row.since.toISOString()} now={now} />,
        ],
      }))}
    />
  );
}
