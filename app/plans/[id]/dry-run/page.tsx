import type { Metadata } from 'next';
import { DryRunWorkbench } from '@/components/simulate/dry-run-workbench';
import { documentOf } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { latestDryRun } from '@/lib/server/simulate/dry-run-service';
import { loadPlanForPage, loadRegistryForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';

export const metadata: Metadata = { title: 'Dry run' };

/** What would happen if the saved head revision ran: the evidence an approver reads. */
export default async function DryRunPage({ params, searchParams }: PageProps<'/plans/[id]/dry-run'>) {
  const { id } = await params;
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/dry-run`, searchParams);
  const plan = await loadPlanForPage(id);
  const { db } = await getDatabase();
  const [registry, latest] = await Promise.all([loadRegistryForPage(), latestDryRun(db, id, plan.revision)]);
  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <div className="mx-auto w-full max-w-[110rem] p-4">
        <DryRunWorkbench planId={plan.id} revision={plan.revision} doc={documentOf(plan)} registry={registry} canRun={hasRole(user.role, 'editor')} initial={latest} />
      </div>
    </div>
  );
}
