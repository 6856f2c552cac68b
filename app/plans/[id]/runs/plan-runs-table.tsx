import Link from 'next/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { RUN_STATE_STYLE, taskCountsText } from '@/components/runs/run-state-style';
import { TableView, type DataColumn } from '@/components/ui/table-view';
import type { RunSummary } from '@/lib/api/run-schemas';
import type { RunState } from '@/lib/runs/run-states';

// The plan's runs as a table. Its state chips are its own: the run view's white-on-sky-600
// ("running") and white-on-orange-600 ("needs replan") chips read at 4.0:1 and 3.6:1, under
// WCAG AA's 4.5:1 for their 12 px text; these are a shade darker (5.9:1 and 5.2:1).

const READABLE_BADGE: Partial<Record<RunState, string>> = {
  running: 'bg-sky-700 text-white',
  needs_replan: 'bg-orange-700 text-white',
};

function RunStateBadge({ state }: { state: RunState }) {
  const style = RUN_STATE_STYLE[state];
  return <span className={`rounded px-2 py-0.5 text-xs font-semibold ${READABLE_BADGE[state] ?? style.badge}`}>{style.label}</span>;
}

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
export function PlanRunsTable({ runs, now }: { runs: RunSummary[]; now: number }) {
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
          <RunStateBadge key="state" state={run.state} />,
          run.revision,
          run.started_by,
          <RelativeTime key="started" iso={run.created_at} now={now} />,
          taskCountsText(run.counts),
        ],
      }))}
    />
  );
}
