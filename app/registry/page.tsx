import type { Metadata } from 'next';
import { ImportRegistryForm } from '@/components/registry/import-registry-form';
import { KIND_ORDER } from '@/components/registry/kind-config';
import { RegistrySection } from '@/components/registry/registry-section';
import { hasRole } from '@/lib/auth/roles';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { getRegistry } from '@/lib/server/registry/registry-service';

export const metadata: Metadata = { title: 'Registry' };

export default async function RegistryPage({ searchParams }: PageProps<'/registry'>) {
  const user = await requirePageUser('/registry', searchParams);
  const canEdit = hasRole(user.role, 'editor');
  const { db } = await getDatabase();
  const registry = await getRegistry(db);
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-6 py-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Resource registry</h1>
          <p className="mt-1 text-sm text-slate-600">
            The agents, tools and functions, LLMs and DSL workflows that tasks are routed to; validation checks plans against it.
          </p>
          {!canEdit && <p className="mt-1 text-sm text-slate-500">You can read the registry; editors can change it.</p>}
        </div>
        <a
          href="/api/registry"
          download="registry.json"
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50"
        >
          Download registry JSON
        </a>
      </div>
      {KIND_ORDER.map((kind) => (
        <RegistrySection key={kind} kind={kind} resources={registry[kind]} canEdit={canEdit} />
      ))}
      {canEdit && <ImportRegistryForm />}
    </div>
  );
}
