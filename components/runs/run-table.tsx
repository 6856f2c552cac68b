import Link from '@/components/ui/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { TableView, type DataColumn } from '@/components/ui/table-view';
import type { RunSummary } from '@/lib/api/run-schemas';
import { RunStateChip, taskCountsText } from './run-state-style';

// Not sortable by its headers: the rows are one page of a list the server orders.
const COLUMNS: DataColumn[] = [
  { id: 'run', header: 'Run' },
  { id: 'state', header: 'State' },
  { id: 'revision', header: 'Revision' },
  { id: 'startedBy', header: 'Started by' },
  { id: 'started', header: 'Started' },
  { id: 'tasks', header: 'Tasks', className: 'text-xs text-slate-600' },
];

/** A plan's runs, newest first: state, revision, who started it and when, and its tasks by state. */
export function RunTable({ runs, now }: { runs: RunSummary[]; now: number }) {
  return (
    <TableView
      caption="Runs, newest first"
      columns={COLUMNS}
      empty="No runs yet."
      rows={runs.map((run) => ({
        key: run.run_id,
        cells: [
          <>
            <Link href={`/runs/${run.run_id}`} className="font-mono font-medium text-brand-700 hover:underline">
              {run.run_id.slice(0, 8)}
            </Link>
            {run.parent_run_id && <span className="ml-2 text-xs text-slate-600">continues {run.parent_run_id.slice(0, 8)}</span>}
          </>,
          <RunStateChip key="state" state={run.state} />,
          run.revision,
          run.started_by,
          <RelativeTime key="started" iso={run.created_at} now={now} />,
          taskCountsText(run.counts),
        ],
      }))}
    />
  );
}
