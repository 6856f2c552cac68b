import Link from 'next/link';
import { RelativeTime } from './relative-time';

export interface QueueRow {
  id: string;
  title: string;
  revision: number;
  who: string | null;
  since: Date;
}

const TH = 'px-4 py-3 font-medium';

/** Plans waiting for a review, each linking to its review page: who sent it and since when. */
export function ReviewQueueTable({ caption, whoLabel, sinceLabel, rows, now }: { caption: string; whoLabel: string; sinceLabel: string; rows: QueueRow[]; now: number }) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className={TH}>Plan</th>
            <th scope="col" className={TH}>Revision</th>
            <th scope="col" className={TH}>{whoLabel}</th>
            <th scope="col" className={TH}>{sinceLabel}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id}>
              <td className="px-4 py-3">
                <Link href={`/plans/${row.id}/review`} className="font-medium text-brand-700 hover:underline">
                  {row.title}
                </Link>
              </td>
              <td className="px-4 py-3 tabular-nums">r{row.revision}</td>
              <td className="px-4 py-3 text-slate-600">{row.who ?? '—'}</td>
              <td className="px-4 py-3 text-slate-600">
                <RelativeTime iso={row.since.toISOString()} now={now} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
