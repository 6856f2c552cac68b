import type { Metadata } from 'next';
import { ListPages, ListProblem } from '@/components/list/list-pages';
import { loadPagedList, pageLinks } from '@/app/paged-list';
import { planAuditPage } from '@/lib/server/audit/plan-audit-page';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
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
  run_started: 'Started a run',
  gate_approved: 'Approved at a gate',
  gate_rejected: 'Rejected at a gate',
};

/** What a gate decision's event adds: the task, and the input approved when the approver edited it. */
function GateFacts({ detail }: { detail: Record<string, unknown> }) {
  if (typeof detail.task_id !== 'string') return null;
  return (
    <>
      <span className="text-slate-700">
        task <span className="font-mono">{detail.task_id}</span>
        {typeof detail.run_id === 'string' && <> of run {detail.run_id.slice(0, 8)}</>}
      </span>
      {detail.edited === true && <span className="rounded bg-violet-100 px-1 text-xs font-semibold text-violet-900">input edited at the gate</span>}
      {typeof detail.input_hash === 'string' && (
        <span className="font-mono text-[11px] text-slate-600" title="SHA-256 of the approved input's RFC 8785 JSON">
          input {detail.input_hash.slice(0, 19)}
        </span>
      )}
    </>
  );
}

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
                  {event.revision !== null && <span className="text-slate-600">revision {event.revision}</span>}
                  <GateFacts detail={event.detail} />
                  {typeof event.detail.comment === 'string' && event.detail.comment && (
                    <span className="text-slate-700">“{event.detail.comment}”</span>
                  )}
                  <time className="ml-auto text-xs text-slate-600" dateTime={event.at}>
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
