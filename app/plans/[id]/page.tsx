import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { StatusChip } from '@/components/plan/status-chip';
import { TaskTable } from '@/components/plan/task-table';
import { ValidationPanel } from '@/components/plan/validation-panel';
import { getDatabase } from '@/lib/server/db/connection';
import { AppError } from '@/lib/server/errors';
import { getPlan } from '@/lib/server/plans/plan-service';
import { validatePlan } from '@/lib/validate';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

async function load(id: string) {
  const { db } = await getDatabase();
  try {
    return await getPlan(db, id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const plan = await load((await params).id);
  return { title: plan.title };
}

function describeJob(job: Record<string, unknown>): string {
  const entries = Object.entries(job);
  return entries.length ? entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' · ') : '—';
}

export default async function PlanPage({ params }: Props) {
  const plan = await load((await params).id);
  const result = validatePlan(plan.plan);
  const flagged = new Set(result.issues.filter((i) => i.severity === 'error').flatMap((i) => i.task_ids));
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link href="/" className="hover:text-slate-900">
          Plans
        </Link>{' '}
        / <span className="text-slate-700">{plan.title}</span>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{plan.title}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <StatusChip status={plan.status} />
            <span>Revision {plan.revision}</span>
            <span>{plan.plan.planned_tasks.length} tasks</span>
            <span className="font-mono text-xs" title={plan.content_hash}>
              {plan.content_hash.slice(0, 19)}
            </span>
          </p>
        </div>
      </header>
      <section aria-labelledby="job-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="job-heading" className="text-sm font-semibold">
          Job
        </h2>
        <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-slate-500">Goal</dt>
          <dd>{describeJob(plan.job.job_goal)}</dd>
          <dt className="text-slate-500">Objectives</dt>
          <dd>{describeJob(plan.job.job_objectives)}</dd>
          <dt className="text-slate-500">Steerability</dt>
          <dd>{describeJob(plan.job.job_steerability_data)}</dd>
          {plan.job.task_description && (
            <>
              <dt className="text-slate-500">Description</dt>
              <dd>{plan.job.task_description}</dd>
            </>
          )}
        </dl>
      </section>
      <ValidationPanel result={result} />
      <section aria-labelledby="tasks-heading" className="space-y-3">
        <h2 id="tasks-heading" className="text-lg font-semibold">
          Tasks
        </h2>
        <TaskTable tasks={plan.plan.planned_tasks} flagged={flagged} />
      </section>
    </div>
  );
}
