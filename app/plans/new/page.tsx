import type { Metadata } from 'next';
import { RoleRequired } from '@/components/auth/role-required';
import { NewPlanForm, type BackendOption } from '@/components/planning/new-plan-form';
import { hasRole } from '@/lib/auth/roles';
import { availableBackends, chooseBackend } from '@/lib/server/planning/choose-backend';
import { requirePageUser } from '@/lib/server/auth/page-auth';

export const metadata: Metadata = { title: 'New plan from a goal' };

/** The planners this deployment offers, each with its honest one-line label; a broken one is left out. */
function backendOptions(): BackendOption[] {
  try {
    return availableBackends().flatMap((id) => {
      try {
        return [{ id, label: chooseBackend(id).label }];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

export default async function NewPlanPage({ searchParams }: PageProps<'/plans/new'>) {
  const user = await requirePageUser('/plans/new', searchParams);
  if (!hasRole(user.role, 'editor')) return <RoleRequired role="editor" username={user.username} current={user.role} />;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">New plan from a goal</h1>
        <p className="mt-1 text-sm text-slate-600">
          Describe the task and, if you have them, the job&apos;s goal, objectives and steerability data. The planner you choose breaks it
          into tasks against the registry; the plan opens in the editor to review before anything runs.
        </p>
      </div>
      <NewPlanForm backends={backendOptions()} />
    </div>
  );
}
