import type { Metadata } from 'next';
import { RunView } from '@/components/runs/run-view';
import { documentOf } from '@/lib/api/schemas';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { latestDryRun } from '@/lib/server/simulate/dry-run-service';
import { gateRefusalFor } from '@/lib/server/runs/gate-deciders';
import { loadPlanForPage, loadPlanSkeletonForPage, loadRegistryForPage } from '../../plans/[id]/load-plan';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { PlanHeader } from '../../plans/[id]/plan-header';
import { loadRunForPage } from './load-run';

type Props = PageProps<'/runs/[run_id]'>;

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { run_id } = await params;
  await requirePageUser(`/runs/${encodeURIComponent(run_id)}`, searchParams);
  return { title: `Run ${(await loadRunForPage(run_id)).run_id.slice(0, 8)}` };
}

/** A run of an approved revision, live: anyone signed in watches; editors control it, approvers decide its gates. */
export default async function RunPage({ params, searchParams }: Props) {
  const { run_id } = await params;
  const user = await requirePageUser(`/runs/${encodeURIComponent(run_id)}`, searchParams);
  const { task } = await searchParams;
  const run = await loadRunForPage(run_id);
  const plan = await loadPlanForPage(run.plan_id, run.revision);
  const { db } = await getDatabase();
  // The rule the service applies to a decision (four-eyes, roles, sock puppets), so the page offers no button it would refuse.
  // A big run is drawn by the editor's overview, which needs the registry.
  const big = plan.plan.planned_tasks.length > OVERVIEW_TASKS;
  const [{ plan: head }, dryRun, gateRefusal, registry] = await Promise.all([
    loadPlanSkeletonForPage(run.plan_id),
    latestDryRun(db, run.plan_id, run.revision),
    gateRefusalFor(db, run.run_id, user),
    big ? loadRegistryForPage() : null,
  ]);
  const predicted = dryRun ? Object.fromEntries(dryRun.result.tasks.map((t) => [t.task_id, { start_ms: t.start_ms, end_ms: t.end_ms }])) : null;
  return (
    <div className="flex min-h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <RunView
        initial={run}
        doc={documentOf(plan)}
        head={{ revision: head.revision, status: head.status, content_hash: head.content_hash }}
        canControl={hasRole(user.role, 'editor')}
        gateRefusal={gateRefusal}
        predicted={predicted}
        registry={registry}
        linkedTaskId={typeof task === 'string' ? task : null}
      />
    </div>
  );
}
