import Link from 'next/link';
import { RelativeTime } from '@/components/plan/relative-time';
import type { RunSummary } from '@/lib/api/run-schemas';
import { RunStateChip, taskCountsText } from './run-state-style';

/** A plan's runs, newest first: state, revision, who started it and when, and its tasks by state. */
export function RunTable({ runs, now }: { runs: RunSummary[]; now: number }) {
  return (
    <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-left text-sm">
      <caption className="sr-only">Runs, newest first</caption>
      <thead className="bg-slate-50 text-xs text-slate-600">
        <tr>
          <th scope="col" className="px-4 py-2 font-medium">Run</th>
          <th scope="col" className="px-4 py-2 font-medium">State</th>
          <th scope="col" className="px-4 py-2 font-medium">Revision</th>
          <th scope="col" className="px-4 py-2 font-medium">Started by</th>
          <th scope="col" className="px-4 py-2 font-medium">Started</th>
          <th scope="col" className="px-4 py-2 font-medium">Tasks</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {runs.map((run) => (
          <tr key={run.run_id}>
            <td className="px-4 py-2">
              <Link href={`/runs/${run.run_id}`} className="font-mono font-medium text-brand-700 hover:underline">
                {run.run_id.slice(0, 8)}
              </Link>
              {run.parent_run_id && <span className="ml-2 text-xs text-slate-500">continues {run.parent_run_id.slice(0, 8)}</span>}
            </td>
            <td className="px-4 py-2">
              <RunStateChip state={run.state} />
            </td>
            <td className="px-4 py-2">{run.revision}</td>
            <td className="px-4 py-2">{run.started_by}</td>
            <td className="px-4 py-2">
              <RelativeTime iso={run.created_at} now={now} />
            </td>
            <td className="px-4 py-2 text-xs text-slate-600">{taskCountsText(run.counts)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
