import Link from '@/components/ui/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { DataTable, type DataColumn } from '@/components/ui/data-table';

export interface GateRow {
  runId: string;
  taskId: string;
  planId: string;
  planTitle: string;
  revision: number;
  startedBy: string;
  since: Date;
}

const COLUMNS: DataColumn[] = [
  { id: 'task', header: 'Task', sortable: true },
  { id: 'plan', header: 'Plan', sortable: true },
  { id: 'run', header: 'Run', className: 'font-mono text-xs text-slate-600' },
  { id: 'startedBy', header: 'Started by', sortable: true, className: 'text-slate-600' },
  { id: 'since', header: 'Waiting since', sortable: true, className: 'text-slate-600' },
];

/** Tasks of running plans waiting at their gate for the viewer's decision, each linking to its run, where it is decided. */
export function GatesWaitingTable({ rows, now }: { rows: GateRow[]; now: number }) {
  return (
    <DataTable
      caption="Gates you may decide, waiting longest first"
      columns={COLUMNS}
      empty="No gate is waiting for you."
      rows={rows.map((row) => ({
        key: `${row.runId}/${row.taskId}`,
        sortValues: { task: row.taskId, plan: row.planTitle, startedBy: row.startedBy, since: row.since.getTime() },
        cells: [
          // The run view holds the gate's input and its approve and reject buttons.
          <Link key="task" href={`/runs/${encodeURIComponent(row.runId)}`} className="font-medium text-brand-700 hover:underline">
            Decide {row.taskId}
            <span className="sr-only"> in run {row.runId.slice(0, 8)} of “{row.planTitle}”</span>
          </Link>,
          <>
            {row.planTitle} <span className="tabular-nums text-slate-600">r{row.revision}</span>
          </>,
          row.runId.slice(0, 8),
          row.startedBy,
          <RelativeTime key="since" iso={row.since.toISOString()} now={now} />,
        ],
      }))}
    />
  );
}
