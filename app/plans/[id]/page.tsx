import type { Metadata } from 'next';
import { PlanEditor } from '@/components/editor/plan-editor';
import { getDatabase } from '@/lib/server/db/connection';
import { documentOf } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { decisionNotice } from '@/lib/server/comments/decision-notice';
import { loadApprovalGuard } from './approval-guard';
import { loadPlanForPage, loadRegistryForPage } from './load-plan';
import { PlanHeader } from './plan-header';
import { replanFromRun } from './replan-from-run';

type Props = PageProps<'/plans/[id]'>;

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { id } = await params;
  // Checked here too, with the whole link: metadata can be resolved before the page.
  await requirePageUser(`/plans/${encodeURIComponent(id)}`, searchParams);
  return { title: (await loadPlanForPage(id)).title };
}

export default async function PlanPage({ params, searchParams }: Props) {
  const { id } = await params;
  // Before the plan is loaded: sign-in returns to this link with its query (?task=, ?view=).
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}`, searchParams);
  const plan = await loadPlanForPage(id);
  const readOnly = !hasRole(user.role, 'editor');
  const doc = documentOf(plan);
  const { db } = await getDatabase();
  const registry = await loadRegistryForPage();
  // Only an editor can save, so only an editor is warned what saving would void.
  const approval = readOnly ? null : await loadApprovalGuard(db, plan.id);
  // A run view's "Replan failed task" link: the dialog opens for an editor, the run's errors its instructions.
  const replan = readOnly ? null : await replanFromRun(db, plan.id, doc, await searchParams);
  // Viewers read threads; editors and approvers write, resolve and reopen them.
  const decision = await decisionNotice(
    db,
    plan.id,
    doc.plan.planned_tasks.map((task) => task.task_id),
  );
  return (
    <div className="flex h-full flex-col">
      <PlanHeader plan={plan} readOnly={readOnly} user={user} />
      <div className="min-h-0 flex-1">
        <PlanEditor key={plan.id} planId={plan.id} revision={plan.revision} doc={doc} readOnly={readOnly} registry={registry} approval={approval} comments={{ canComment: !readOnly, decision }} replan={replan} />
      </div>
    </div>
  );
}
