import type { Metadata } from 'next';
import Link from 'next/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { reviewQueue } from '@/lib/server/approval/approval-service';
import { requirePageUser, type PageSearchParams } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/db/connection';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Review queue' };

export default async function ReviewQueuePage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  await requirePageUser('/reviews', searchParams);
  const { db } = await getDatabase();
  const plans = await reviewQueue(db);
  // eslint-disable-next-line react-hooks/purity -- rendered once per request; "now" is the request time
  const now = Date.now();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Review queue</h1>
        <p className="mt-1 text-sm text-slate-600">Plans submitted for review, waiting longest first.</p>
      </div>
      {plans.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-12 text-center text-slate-600">
          Nothing is waiting for review.
        </div>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Plans in review, oldest first</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">Plan</th>
                <th scope="col" className="px-4 py-3 font-medium">Revision</th>
                <th scope="col" className="px-4 py-3 font-medium">Submitted by</th>
                <th scope="col" className="px-4 py-3 font-medium">Waiting since</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {plans.map((plan) => (
                <tr key={plan.id}>
                  <td className="px-4 py-3">
                    <Link href={`/plans/${plan.id}/review`} className="font-medium text-brand-700 hover:underline">
                      {plan.title}
                    </Link>
                  </td>
                  <td className="px-4 py-3 tabular-nums">r{plan.revision}</td>
                  <td className="px-4 py-3 text-slate-600">{plan.submitted_by ?? '—'}</td>
                  <td className="px-4 py-3 text-slate-600">
                    <RelativeTime iso={plan.updated_at.toISOString()} now={now} />
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
