import type { Metadata } from 'next';
import { ProgressivePlanEditor } from '@/components/editor/progressive-plan-editor';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { documentOf } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { decisionNotice } from '@/lib/server/comments/decision-notice';
import { loadApprovalGuard } from '../approval-guard';
import { loadingView } from '../loading-view';
import { loadPlanForPage, loadPlanSkeletonForPage, loadRegistryForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';
import { replanFromRun } from '../replan-from-run';

type Props = PageProps<'/plans/[id]'>;

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { id } = await params;
  // Checked here too, with the whole link: metadata can be resolved before the page.
  await requirePageUser(`/plans/${encodeURIComponent(id)}`, searchParams);
  return { title: (await loadPlanSkeletonForPage(id)).plan.title };
}

export default async function PlanPage({ params, searchParams }: Props) {
  const { id } = await params;
  // Before the plan is loaded: sign-in returns to this link with its query (?task=, ?view=).
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}`, searchParams);
  const query = await searchParams;
  const { plan: skeleton, taskIds } = await loadPlanSkeletonForPage(id);
  const readOnly = !hasRole(user.role, 'editor');
  const { db } = await getDatabase();
  const registry = await loadRegistryForPage();
  // Only an editor can save, so only an editor is warned what saving would void.
  const approval = readOnly ? null : await loadApprovalGuard(db, skeleton.id);
  // Viewers read threads; editors and approvers write, resolve and reopen them.
  const comments = { canComment: !readOnly, decision: await decisionNotice(db, skeleton.id, taskIds) };
  // A run view's "Replan failed task" link: the dialog opens for an editor, the run's errors its instructions.
  const replan = readOnly ? null : await replanFromRun(db, skeleton.id, taskIds, query);

  // A big plan opens progressively: the page carries the tasks saved around the task the link
  // names, or else its overview, drawn from each task's routing and dependencies; the editor
  // reads the tasks meanwhile, then opens what the link names (a task, a viewport) or stays on
  // the overview. A smaller one comes whole, at the revision the header shows even if a save
  // lands in between. Both render the same component, which keeps the way it opened when the
  // page renders again.
  // The browser reads a big plan's tasks from the segment's layout's hint meanwhile (./layout.tsx).
  const opening = taskIds.length > OVERVIEW_TASKS ? { loading: await loadingView(db, skeleton, taskIds.length, query) } : { doc: documentOf(await loadPlanForPage(id, skeleton.revision)) };
  return (
    <div className="flex h-full flex-col">
      <PlanHeader plan={skeleton} readOnly={readOnly} user={user} />
      <div className="min-h-0 flex-1">
        <ProgressivePlanEditor
          key={skeleton.id}
          planId={skeleton.id}
          revision={skeleton.revision}
          {...opening}
          readOnly={readOnly}
          registry={registry}
          approval={approval}
          comments={comments}
          replan={replan}
        />
      </div>
    </div>
  );
}
