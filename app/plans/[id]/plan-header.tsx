import Link from 'next/link';
import { StatusChip } from '@/components/plan/status-chip';
import type { PlanResponse } from '@/lib/api/schemas';

export function PlanHeader({ plan, readOnly }: { plan: PlanResponse; readOnly: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-200 bg-white px-4 py-2">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link href="/" className="hover:text-slate-900">
          Plans
        </Link>{' '}
        /
      </nav>
      <h1 className="text-base font-semibold tracking-tight">{plan.title}</h1>
      <StatusChip status={plan.status} />
      <span className="font-mono text-[11px] text-slate-500" title={plan.content_hash}>
        {plan.content_hash.slice(0, 19)}
      </span>
      {readOnly && (
        <span className="rounded bg-slate-800 px-2 py-0.5 text-xs font-medium text-white">
          Revision {plan.revision} · read-only
        </span>
      )}
      <nav aria-label="Plan" className="ml-auto flex gap-4 text-sm">
        {readOnly && (
          <Link href={`/plans/${plan.id}`} className="text-brand-700 hover:underline">
            Open latest (revision {plan.head_revision})
          </Link>
        )}
        <Link href={`/plans/${plan.id}/revisions`} className="text-brand-700 hover:underline">
          Revisions
        </Link>
      </nav>
    </div>
  );
}
