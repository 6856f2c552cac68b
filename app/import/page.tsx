import type { Metadata } from 'next';
import { RoleRequired } from '@/components/auth/role-required';
import { ImportForm } from '@/components/plan/import-form';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';

export const metadata: Metadata = { title: 'Import a plan' };

export default async function ImportPage({ searchParams }: PageProps<'/import'>) {
  const user = await requirePageUser('/import', searchParams);
  if (!hasRole(user.role, 'editor')) return <RoleRequired role="editor" username={user.username} current={user.role} />;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Import a plan</h1>
        <p className="mt-1 text-sm text-slate-600">
          Any planner&apos;s output Plangate reads: seed 000 TaskData, Planner Agent steps, state data-flow calls, Cortex XML, AgentScope
          task lists or a WfCommons workflow. The plan is laid out and opens in the editor.
        </p>
      </div>
      <ImportForm />
    </div>
  );
}
