import Link from 'next/link';
import { RelativeTime } from '@/components/plan/relative-time';

export interface GateRow {
  runId: string;
  taskId: string;
  planId: string;
  planTitle: string;
  revision: number;
  startedBy: string;
  since: Date;
}

const TH = 'px-4 py-3 font-medium';

/** Tasks of running plans waiting at their gate for the viewer's decision, each linking to its run, where it is decided. */
export function GatesWaitingTable({ rows, now }: { rows: GateRow[]; now: number }) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Gates you may decide, waiting longest first</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className={TH}>Task</th>
            <th scope="col" className={TH}>Plan</th>
            <th scope="col" className={TH}>Run</th>
            <th scope="col" className={TH}>Started by</th>
            <th scope="col" className={TH}>Waiting since</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={`${row.runId}/${row.taskId}`}>
              <td className="px-4 py-3">
                {/* The run view holds the gate's input and its approve and reject buttons. */}
                <Link href={`/runs/${encodeURIComponent(row.runId)}`} className="font-medium text-brand-700 hover:underline">
                  Decide {row.taskId}
                  <span className="sr-only"> in run {row.runId.slice(0, 8)} of “{row.planTitle}”</span>
                </Link>
              </td>
              <td className="px-4 py-3">
                {row.planTitle} <span className="tabular-nums text-slate-600">r{row.revision}</span>
              </td>
              <td className="px-4 py-3 font-mono text-xs text-slate-600">{row.runId.slice(0, 8)}</td>
              <td className="px-4 py-3 text-slate-600">{row.startedBy}</td>
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
