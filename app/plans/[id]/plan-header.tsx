import { NavLink } from '@/components/ui/nav-link';
import { PlanHeadStatus, PlanHeadSubmit, type PlanHead } from '@/components/plan/plan-head';
import { StatusChip } from '@/components/plan/status-chip';
import { StartRunButton } from '@/components/runs/start-run-button';
import type { RunSummary } from '@/lib/api/run-schemas';
import type { PlanResponse } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { planPlannedBy } from '@/lib/planning/planning-types';
import { previousReviewers, reviewerCandidates } from '@/lib/server/approval/requested-reviewers';
import type { Principal } from '@/lib/server/auth/principal';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { listPlanRuns } from '@/lib/server/runs/run-queries';
import { RegistryNotice } from './registry-notice';
import { SubmitForReview } from './submit-for-review';

const SUBMITTABLE = new Set(['draft', 'changes_requested']);

/** The newest run, when it stopped for a replan at an earlier revision than this one: this revision can continue it. */
const continuable = (run: RunSummary | undefined, revision: number) => (run && run.state === 'needs_replan' && run.revision < revision ? run.run_id : null);

/**
 * The plan pages' header. In the editor (not read-only) the status, hash and submit control
 * follow the head through each save's answer (components/plan/plan-head), so a save does not
 * render the page again; elsewhere they are what the server rendered.
 */
export async function PlanHeader({ plan, readOnly, user }: { plan: PlanResponse; readOnly: boolean; user: Principal }) {
  const atHead = plan.revision === plan.head_revision;
  const plannedBy = planPlannedBy(plan.plan.original_job_data);
  const live = !readOnly && atHead;
  const head: PlanHead = { revision: plan.revision, status: plan.status, content_hash: plan.content_hash };
  const canSubmit = atHead && hasRole(user.role, 'editor');
  // In the editor a save can turn an approved plan back into a draft, so the names are read even before they are offered.
  const reviewers = live && canSubmit ? await reviewerCandidates((await getDatabase()).db, user.username) : [];
  const previous = live && canSubmit ? await previousReviewers((await getDatabase()).db, plan.id, user.username) : [];
  // The newest run, if it stopped for a replan, can be continued by a run of the new approved revision.
  const [latestRun] = canSubmit ? (await listPlanRuns((await getDatabase()).db, plan.id, { limit: 1 })).runs : [];
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-200 bg-white px-4 py-2">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <NavLink href="/" className="hover:text-slate-900">
          Plans
        </NavLink>{' '}
        /
      </nav>
      <h1 className="text-base font-semibold tracking-tight">{plan.title}</h1>
      {live ? (
        <PlanHeadStatus planId={plan.id} rendered={head} />
      ) : (
        <>
          <StatusChip status={plan.status} />
          <span className="font-mono text-[11px] text-slate-500" title={plan.content_hash}>
            {plan.content_hash.slice(0, 19)}
          </span>
        </>
      )}
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
      {canSubmit &&
        (live ? (
          <PlanHeadSubmit planId={plan.id} rendered={head} reviewers={reviewers} previousReviewers={previous} />
        ) : (
          SUBMITTABLE.has(plan.status) && <SubmitForReview planId={plan.id} revision={plan.revision} contentHash={plan.content_hash} user={user} />
        ))}
      {canSubmit && <StartRunButton planId={plan.id} rendered={head} replanRunId={continuable(latestRun, plan.revision)} />}
      <nav aria-label="Plan" className="ml-auto flex gap-4 text-sm">
        {readOnly && !atHead && (
          <NavLink href={`/plans/${plan.id}`} className="text-brand-700 hover:underline">
            Open latest (revision {plan.head_revision})
          </NavLink>
        )}
        <NavLink href={`/plans/${plan.id}/dry-run`} className="text-brand-700 hover:underline">
          Dry run
        </NavLink>
        <NavLink href={`/plans/${plan.id}/review`} className="text-brand-700 hover:underline">
          Review
        </NavLink>
        <NavLink href={`/plans/${plan.id}/revisions`} className="text-brand-700 hover:underline">
          Revisions
        </NavLink>
        <NavLink href={`/plans/${plan.id}/runs`} className="text-brand-700 hover:underline">
          Runs
        </NavLink>
        <NavLink href={`/plans/${plan.id}/history`} className="text-brand-700 hover:underline">
          History
        </NavLink>
      </nav>
      <RegistryNotice planId={plan.id} />
    </div>
  );
}
