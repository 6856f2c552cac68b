import Link from 'next/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { StatusChip } from '@/components/plan/status-chip';
import { requirePageUser, type PageSearchParams } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/db/connection';
import { listPlanSummaries } from '@/lib/server/plans/plan-service';

export const dynamic = 'force-dynamic';

export default async function PlansPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  await requirePageUser('/', searchParams);
  const { db } = await getDatabase();
  const plans = await listPlanSummaries(db);
  // A server component renders once per request, so "now" is the request time, as intended.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-6 py-8">
      <div className="flex items-end justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Plans</h1>
          <p className="mt-1 text-sm text-slate-600">
            Every plan a planner produced, waiting for a person to read, fix and approve it.
          </p>
        </div>
      </div>
      {plans.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-12 text-center text-slate-600">
          No plans yet. Create one with <code className="font-mono text-sm">POST /api/plans</code>.
        </div>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Plans, most recently updated first</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">Title</th>
                <th scope="col" className="px-4 py-3 font-medium">Status</th>
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
                  <td className="px-4 py-3 tabular-nums text-slate-700">r{plan.revision}</td>
                  <td className="px-4 py-3 font-mono text-xs text-slate-500" title={plan.content_hash}>
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
      )}
    </div>
  );
}
