import Link from 'next/link';
import { StatusChip } from '@/components/plan/status-chip';
import { SubmitForReviewButton } from '@/components/plan/submit-for-review-button';
import type { PlanResponse } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { planPlannedBy } from '@/lib/planning/planning-types';
import type { Principal } from '@/lib/server/auth/principal';
import { RegistryNotice } from './registry-notice';

const SUBMITTABLE = new Set(['draft', 'changes_requested']);

export function PlanHeader({ plan, readOnly, user }: { plan: PlanResponse; readOnly: boolean; user: Principal }) {
  const atHead = plan.revision === plan.head_revision;
  const plannedBy = planPlannedBy(plan.plan.original_job_data);
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
      {plannedBy && (
        <span className="rounded bg-violet-50 px-2 py-0.5 text-xs text-violet-800 ring-1 ring-inset ring-violet-200" title={plannedBy.label}>
          Planned by {plannedBy.label}
        </span>
      )}
      {readOnly && (
        <span className="rounded bg-slate-800 px-2 py-0.5 text-xs font-medium text-white">
          Revision {plan.revision} · read-only
        </span>
      )}
      {atHead && SUBMITTABLE.has(plan.status) && hasRole(user.role, 'editor') && (
        <SubmitForReviewButton planId={plan.id} revision={plan.revision} contentHash={plan.content_hash} />
      )}
      <nav aria-label="Plan" className="ml-auto flex gap-4 text-sm">
        {readOnly && !atHead && (
          <Link href={`/plans/${plan.id}`} className="text-brand-700 hover:underline">
            Open latest (revision {plan.head_revision})
          </Link>
        )}
        <Link href={`/plans/${plan.id}/dry-run`} className="text-brand-700 hover:underline">
          Dry run
        </Link>
        <Link href={`/plans/${plan.id}/review`} className="text-brand-700 hover:underline">
          Review
        </Link>
        <Link href={`/plans/${plan.id}/revisions`} className="text-brand-700 hover:underline">
          Revisions
        </Link>
        <Link href={`/plans/${plan.id}/history`} className="text-brand-700 hover:underline">
          History
        </Link>
      </nav>
      <RegistryNotice planId={plan.id} />
    </div>
  );
}
