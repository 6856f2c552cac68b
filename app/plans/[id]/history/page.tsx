import type { Metadata } from 'next';
import { ListPages, ListProblem } from '@/components/list/list-pages';
import { loadPagedList, pageLinks } from '@/app/paged-list';
import { planAuditPage } from '@/lib/server/audit/plan-audit-page';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/db/connection';
import { loadPlanSkeletonForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';

export const metadata: Metadata = { title: 'History' };

const LABELS: Record<string, string> = {
  created: 'Created',
  revised: 'Saved a new revision',
  submitted: 'Submitted for review',
  approved: 'Approved',
  changes_requested: 'Requested changes',
  rejected: 'Rejected',
  superseded: 'Approval superseded',
};

/** The plan's audit trail: every transition, who made it, on which revision and hash. */
export default async function HistoryPage({ params, searchParams }: PageProps<'/plans/[id]/history'>) {
  const { id } = await params;
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/history`, searchParams);
  // The header only: the skeleton, not 20,000 tasks.
  const { plan } = await loadPlanSkeletonForPage(id);
  const { db } = await getDatabase();
  const list = await loadPagedList(await searchParams, (query) => planAuditPage(db, id, query));
  const path = `/plans/${id}/history`;
  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <div className="mx-auto w-full max-w-5xl space-y-4 px-6 py-6">
        <h2 className="text-xl font-semibold tracking-tight">History</h2>
        {list.page === null ? (
          <ListProblem problem={list.problem} firstHref={path} />
        ) : (
          <>
            <ol aria-label="Audit events, oldest first" className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
              {list.page.events.map((event) => (
                <li key={event.seq} className="flex flex-wrap items-baseline gap-x-3 px-4 py-2">
                  <span className="font-medium">{LABELS[event.kind] ?? event.kind}</span>
                  <span className="text-slate-600">by {event.actor}</span>
                  {event.revision !== null && <span className="text-slate-500">revision {event.revision}</span>}
                  {typeof event.detail.comment === 'string' && event.detail.comment && (
                    <span className="text-slate-700">“{event.detail.comment}”</span>
                  )}
                  <time className="ml-auto text-xs text-slate-500" dateTime={event.at}>
                    {event.at.replace('T', ' ').slice(0, 19)} UTC
                  </time>
                  <span className="w-full font-mono text-[11px] text-slate-500" title={event.hash}>
                    {event.hash.slice(0, 23)} ← {event.prev_hash.slice(0, 23)}
                  </span>
                </li>
              ))}
            </ol>
            <ListPages {...pageLinks(path, {}, list.query, list.page.next_cursor)} />
          </>
        )}
      </div>
    </div>
  );
}
