import type { Metadata } from 'next';
import Link from 'next/link';
import { RunTable } from '@/components/runs/run-table';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/db/connection';
import { AppError } from '@/lib/server/errors';
import { listPlanRuns } from '@/lib/server/runs/run-queries';
import { loadPlanForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';

export const metadata: Metadata = { title: 'Runs' };

const PAGE_SIZE = 25;

/** The plan's runs, newest first, a page at a time. */
export default async function PlanRunsPage({ params, searchParams }: PageProps<'/plans/[id]/runs'>) {
  const { id } = await params;
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/runs`, searchParams);
  const plan = await loadPlanForPage(id);
  const cursorParam = (await searchParams).cursor;
  const cursor = typeof cursorParam === 'string' && cursorParam ? cursorParam : undefined;
  const { db } = await getDatabase();
  // A hand-edited or outdated cursor shows the message and a way back, not an error page.
  const listed = await listPlanRuns(db, id, { limit: PAGE_SIZE, cursor }).catch((error: unknown) => {
    if (!(error instanceof AppError) || error.status !== 400) throw error;
    return { problem: error.message };
  });
  const page = 'runs' in listed ? listed : null;
  const problem = 'problem' in listed ? listed.problem : null;
  // A server component renders once per request, so "now" is the request time, as intended.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  const first = `/plans/${plan.id}/runs`;
  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <div className="mx-auto w-full max-w-5xl space-y-4 px-6 py-6">
        <h2 className="text-xl font-semibold tracking-tight">Runs</h2>
        {problem ? (
          <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-4 text-sm text-rose-800">
            {problem}.{' '}
            <Link href={first} className="font-medium underline">
              Show the newest runs
            </Link>
          </div>
        ) : !page || page.runs.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
            No runs yet. An editor starts one from the plan once its head revision is approved.
          </p>
        ) : (
          <>
            <RunTable runs={page.runs} now={now} />
            <nav aria-label="Pages" className="flex items-center justify-end gap-4 text-sm">
              {cursor && (
                <Link href={first} className="font-medium text-brand-700 hover:underline">
                  First page
                </Link>
              )}
              {page.next_cursor && (
                <Link href={`${first}?cursor=${encodeURIComponent(page.next_cursor)}`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50">
                  Next page
                </Link>
              )}
            </nav>
          </>
        )}
      </div>
    </div>
  );
}
