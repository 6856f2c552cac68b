import type { Metadata } from 'next';
import { PlanEditor } from '@/components/editor/plan-editor';
import { ProgressivePlanEditor } from '@/components/editor/progressive-plan-editor';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { latestDryRun } from '@/lib/server/simulate/dry-run-service';
import { formatMs, formatUsd } from '@/components/simulate/format';
import Link from '@/components/ui/link';
import { FirstRevisionView, PlanDiffView } from '@/components/plan/plan-diff-view';
import { TaskTable } from '@/components/plan/task-table';
import { CommentThreads } from '@/components/comments/comment-threads';
import { taskLabel } from '@/lib/flow/task-label';
import { ReviewLegend } from '@/components/review/review-legend';
import { TaskViewsProvider, ViewedProgress } from '@/components/review/task-views';
import { reviewMarksData } from '@/lib/flow/review-marks';
import { ResourceChangesView } from '@/components/plan/resource-changes-view';
import { resourcesHash } from '@/lib/approval/approved-resources';
import { ReviewList } from '@/components/plan/review-list';
import { ReviewPanel } from '@/components/plan/review-panel';
import { documentOf } from '@/lib/api/schemas';
import { checkDecision } from '@/lib/approval/gate';
import { hasRole } from '@/lib/auth/roles';
import { getGateReviews, readGate } from '@/lib/server/approval/approval-service';
import { reviewBaseFor } from '@/lib/server/approval/review-base';
import { defaultBaseLabel, describeBase } from '@/lib/approval/review-base';
import { BasePicker } from '@/components/review/base-picker';
import { resourceChangesSinceLastApproval } from '@/lib/server/approval/registry-binding';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { BIG_PLAN_ROWS, readReviewFacts } from '@/lib/server/review/review-facts';
import { loadingView } from '../loading-view';
import { loadPlanForPage, loadPlanSkeletonForPage, loadRegistryForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';

export const metadata: Metadata = { title: 'Review' };

type Props = PageProps<'/plans/[id]/review'>;

export default async function ReviewPage({ params, searchParams }: Props) {
  const { id } = await params;
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/review`, searchParams);
  // The head without its tasks: what the page needs before the review is read, at any size.
  const { plan, taskIds } = await loadPlanSkeletonForPage(id);
  const { db } = await getDatabase();
  const query = await searchParams;
  const [gate, registry, dryRun, chosen] = await Promise.all([
    getGateReviews(db, id),
    loadRegistryForPage(),
    latestDryRun(db, id, plan.revision),
    reviewBaseFor(db, id, user.username, plan.revision, query.base),
  ]);
  // What this reader has not seen yet: the change since their own last review, unless they chose another base.
  const base = chosen.base.revision;
  // Validation, resources, the diff and the rows, worked out off the server's thread; the gate
  // reuses them while the head is still this revision.
  const taskCount = taskIds.length;
  const review = await readReviewFacts(db, id, plan.revision, base, taskCount > OVERVIEW_TASKS ? BIG_PLAN_ROWS : taskCount);
  const { state, validation, resources } = await readGate(db, id, false, { revision: plan.revision, ...review });
  const marks = review.diff ? reviewMarksData(review.diff, review.basePositions) : null;
  // A big plan's canvas reads its tasks from the API, as the editor does: written into the
  // page, 20,000 tasks held the server's thread while React serialised them.
  const loading = taskCount > OVERVIEW_TASKS ? await loadingView(db, plan, taskCount, query) : null;
  const canvas = loading ? (
    <ProgressivePlanEditor planId={plan.id} revision={plan.revision} loading={loading} readOnly registry={registry} reviewMarks={marks ?? undefined} />
  ) : (
    <PlanEditor planId={plan.id} revision={plan.revision} doc={documentOf(await loadPlanForPage(id, plan.revision))} readOnly registry={registry} reviewMarks={marks ?? undefined} />
  );
  const heading = describeBase(chosen.base, plan.revision);
  const selectedBase = chosen.problem || query.base === undefined || Array.isArray(query.base) ? '' : query.base;
  const claim = { revision: plan.revision, contentHash: plan.content_hash };
  const decideRefusal = checkDecision(state, 'rejected', user, claim)?.message ?? null;
  const approveRefusal = checkDecision(state, 'approved', user, claim)?.message ?? null;
  const resourceChanges = await resourceChangesSinceLastApproval(db, id, resources);
  const covered = Object.entries(resources.definitions).flatMap(([kind, list]) =>
    (list as Array<{ id?: string; name?: string }>).map((r) => `${kind}/${r.id ?? r.name}`),
  );
  // The reader's standing decision on this content: said as done, not as a refusal to decide again.
  const yourReview = gate.reviews.find((review) => review.reviewer === user.username && review.revision >= state.contentRevision && !review.superseded_at);
  const yourDecision = yourReview
    ? { reviewId: yourReview.id, decision: yourReview.decision, revision: yourReview.revision, approvals: { given: state.approvedBy.length, required: gate.approvals_required } }
    : null;
  // The comment forms need names, not tasks; a big plan's read them with the canvas's tasks.
  const commentTasks = review.names?.map((task) => ({ id: task.task_id, label: taskLabel(task) }));
  const errors = validation.issues.filter((issue) => issue.severity === 'error');
  const warnings = validation.issues.filter((issue) => issue.severity === 'warning');

  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      {/* The whole width and most of the viewport below the headers, so nodes are readable at the fitted zoom. */}
      <section aria-label="Plan (read-only)" className="mx-4 mt-4 flex h-[calc(100vh-9rem)] min-h-[32rem] flex-col overflow-hidden rounded-lg border border-slate-200 bg-white">
        <div className="border-b border-slate-200 px-3 py-1.5">
          <ReviewLegend data={marks} base={base} revision={plan.revision} />
        </div>
        <div className="min-h-0 flex-1">
          {canvas}
        </div>
      </section>
      <TaskViewsProvider planId={plan.id} revision={plan.revision}>
        <div className="grid flex-1 gap-4 p-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="space-y-4">
            <section aria-labelledby="diff-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 id="diff-heading" className="text-lg font-semibold">
                  {heading}
                </h2>
                <BasePicker planId={plan.id} history={chosen.history} selected={selectedBase} defaultLabel={defaultBaseLabel(chosen.history)} />
              </div>
              {chosen.problem && (
                <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  {chosen.problem}
                </p>
              )}
              {review.diff ? <PlanDiffView diff={review.diff} /> : <FirstRevisionView tasks={review.tasks} total={review.taskCount} subgraphs={review.subgraphs} />}
            </section>
            <section aria-labelledby="tasks-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="tasks-heading" className="text-lg font-semibold">
                Tasks ({review.taskCount})
              </h2>
              <p className="text-sm text-slate-600">Every field of every task in revision {plan.revision}, as stored and as approved.</p>
              <TaskTable tasks={review.tasks} total={review.taskCount} subgraphs={review.subgraphs} />
            </section>
            <section aria-labelledby="resources-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="resources-heading" className="text-lg font-semibold">
                Registry resources
              </h2>
              <p className="text-sm text-slate-600">
                An approval covers the plan and the {covered.length} registry resource{covered.length === 1 ? '' : 's'} it routes to
                {covered.length ? `: ${covered.join(', ')}` : ''}. A change to any of them voids it.
              </p>
              {resourceChanges && (
                <>
                  <h3 className="text-sm font-semibold">Changed since approved revision {resourceChanges.approvedRevision}</h3>
                  <ResourceChangesView changes={resourceChanges.changes} />
                </>
              )}
            </section>
          </div>
          <aside className="space-y-4">
            <section aria-labelledby="validation-heading" className="rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="validation-heading" className="text-lg font-semibold">
                Validation
              </h2>
              <p className={`mt-1 text-sm ${errors.length ? 'text-rose-700' : 'text-emerald-700'}`}>
                {errors.length ? `${errors.length} error${errors.length === 1 ? '' : 's'}` : 'No errors'}
                {warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''}
              </p>
              {validation.issues.length > 0 && (
                <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto text-sm">
                  {validation.issues.slice(0, 100).map((issue, index) => (
                    <li key={index} className={issue.severity === 'error' ? 'text-rose-800' : 'text-amber-800'}>
                      {issue.message}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="dry-run-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <h2 id="dry-run-heading" className="text-lg font-semibold">
                Dry run
              </h2>
              {dryRun ? (
                <p className="mt-1 text-slate-700">
                  Dry run #{dryRun.number} on {dryRun.result.workers} workers: makespan {formatMs(dryRun.result.makespan_ms)}, cost {formatUsd(dryRun.result.total_cost_usd)},{' '}
                  {dryRun.result.findings.length} finding{dryRun.result.findings.length === 1 ? '' : 's'}.{' '}
                  <Link href={`/plans/${plan.id}/dry-run`} className="text-brand-700 hover:underline">
                    See the dry run
                  </Link>
                </p>
              ) : (
                <p className="mt-1 text-slate-600">
                  No dry run of revision {plan.revision} yet.{' '}
                  <Link href={`/plans/${plan.id}/dry-run`} className="text-brand-700 hover:underline">
                    Run one
                  </Link>
                </p>
              )}
            </section>
            <section aria-labelledby="decision-heading" className="rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="decision-heading" className="mb-2 text-lg font-semibold">
                Decision
              </h2>
              <p className="mb-3 text-sm text-slate-600">
                {state.approvedBy.length} of{' '}
                {gate.approvals_required} required approval{gate.approvals_required === 1 ? '' : 's'}
              </p>
              <div className="mb-3">
                <ViewedProgress total={review.taskCount} />
              </div>
              {hasRole(user.role, 'approver') ? (
                <ReviewPanel
                  planId={plan.id}
                  revision={plan.revision}
                  contentHash={plan.content_hash}
                  resourcesHash={resourcesHash(resources)}
                  approveRefusal={approveRefusal}
                  decideRefusal={decideRefusal}
                  yourDecision={yourDecision}
                  tasks={commentTasks}
                />
              ) : (
                <p className="text-sm text-slate-600">Approvers decide here; you have the {user.role} role.</p>
              )}
            </section>
            <CommentThreads planId={plan.id} revision={plan.revision} tasks={commentTasks} canComment={hasRole(user.role, 'editor')} />
            <section aria-labelledby="decisions-heading" className="rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="decisions-heading" className="text-lg font-semibold">
                Decisions
              </h2>
              <ReviewList reviews={gate.reviews} requested={gate.requested_reviewers} />
            </section>
          </aside>
        </div>
      </TaskViewsProvider>
    </div>
  );
}
