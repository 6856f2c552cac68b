import type { Metadata } from 'next';
import { LoadedDryRunWorkbench } from '@/components/simulate/dry-run-loader';
import { DryRunWorkbench } from '@/components/simulate/dry-run-workbench';
import { documentOf } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { latestDryRun } from '@/lib/server/simulate/dry-run-service';
import { loadPlanForPage, loadPlanSkeletonForPage, loadRegistryForPage } from '../load-plan';
import { PlanHeader } from '../plan-header';

export const metadata: Metadata = { title: 'Dry run' };

/** What would happen if the saved head revision ran: the evidence an approver reads. */
export default async function DryRunPage({ params, searchParams }: PageProps<'/plans/[id]/dry-run'>) {
  const { id } = await params;
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/dry-run`, searchParams);
  const { plan: skeleton, taskIds } = await loadPlanSkeletonForPage(id);
  const registry = await loadRegistryForPage();
  const common = { planId: skeleton.id, revision: skeleton.revision, registry, canRun: hasRole(user.role, 'editor') };
  // A big plan's page carries none of its tasks: the browser reads them and the dry run from
  // the API, which answers with stored text. Written into the page, 20,000 tasks and their
  // results held the server's thread for a second and made 14 MB of HTML.
  const big = taskIds.length > OVERVIEW_TASKS;
  const carried = big ? null : await carriedDocuments(id, skeleton.revision);
  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={skeleton} readOnly user={user} />
      <div className="mx-auto w-full max-w-[110rem] p-4">
        {carried ? <DryRunWorkbench {...common} {...carried} /> : <LoadedDryRunWorkbench {...common} taskCount={taskIds.length} />}
      </div>
    </div>
  );
}

/** A small plan's revision and latest dry run, carried in the page. */
async function carriedDocuments(id: string, revision: number) {
  const { db } = await getDatabase();
  const [plan, initial] = await Promise.all([loadPlanForPage(id, revision), latestDryRun(db, id, revision)]);
  return { doc: documentOf(plan), initial };
}
