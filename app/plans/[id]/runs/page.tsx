import type { Metadata } from 'next';
import { loadPagedList, pageHref, pageLinks } from '@/app/paged-list';
import { ListPages, ListProblem } from '@/components/list/list-pages';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { listPlanRuns } from '@/lib/server/runs/run-queries';
import { loadPlanSkeletonForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';
import { RunTable } from '@/components/runs/run-table';

export const metadata: Metadata = { title: 'Runs' };

/** The plan's runs, newest first, a page at a time (the REST list's limit and cursor). */
export default async function PlanRunsPage({ params, searchParams }: PageProps<'/plans/[id]/runs'>) {
  const { id } = await params;
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/runs`, searchParams);
  // The header only: the skeleton, not 20,000 tasks.
  const { plan } = await loadPlanSkeletonForPage(id);
  const { db } = await getDatabase();
  const list = await loadPagedList(await searchParams, (query) => listPlanRuns(db, id, query));
  // A server component renders once per request, so "now" is the request time, as intended.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  const path = `/plans/${plan.id}/runs`;
  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <div className="mx-auto w-full max-w-5xl space-y-4 px-6 py-6">
        <h2 className="text-xl font-semibold tracking-tight">Runs</h2>
        {list.problem !== null ? (
          <ListProblem problem={list.problem} firstHref={pageHref(path, {}, list.query)} />
        ) : list.page.runs.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
            No runs yet. An editor starts one from the plan once its head revision is approved.
          </p>
        ) : (
          <>
            <RunTable runs={list.page.runs} now={now} />
            <ListPages {...pageLinks(path, {}, list.query, list.page.next_cursor)} />
          </>
        )}
      </div>
    </div>
  );
}
