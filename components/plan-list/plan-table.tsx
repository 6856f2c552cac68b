import Link from 'next/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { StatusChip } from '@/components/plan/status-chip';
import type { PlanListItem } from '@/lib/api/list-schemas';

/** One page of plans. `caption` says what the list shows (filters and order). */
export function PlanTable({ plans, caption, now }: { plans: PlanListItem[]; caption: string; now: number }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="px-4 py-2 text-left text-xs text-slate-600">{caption}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">Title</th>
            <th scope="col" className="px-4 py-3 font-medium">Status</th>
            <th scope="col" className="px-4 py-3 text-right font-medium">Tasks</th>
            <th scope="col" className="px-4 py-3 font-medium">Author</th>
            <th scope="col" className="px-4 py-3 font-medium">Revision</th>
            <th scope="col" className="px-4 py-3 font-medium">Content hash</th>
            <th scope="col" className="px-4 py-3 font-medium">Updated</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {plans.map((plan) => (
            <tr key={plan.id} className="hover:bg-slate-50">
              <td className="px-4 py-3">
                <Link href={`/plans/${plan.id}`} className="font-medium text-brand-700 hover:underline">
                  {plan.title}
                </Link>
              </td>
              <td className="px-4 py-3">
                <StatusChip status={plan.status} />
              </td>
              <td className="px-4 py-3 text-right tabular-nums text-slate-700">{plan.task_count}</td>
              <td className="px-4 py-3 text-slate-700">{plan.author}</td>
              <td className="px-4 py-3 tabular-nums text-slate-700">r{plan.revision}</td>
              <td className="px-4 py-3 font-mono text-xs text-slate-600" title={plan.content_hash}>
                {plan.content_hash.slice(7, 19)}
              </td>
              <td className="px-4 py-3 text-slate-600">
                <RelativeTime iso={plan.updated_at} now={now} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
