'use client';

import { addMissingResourcesAction } from '@/app/registry/add-missing-actions';
import { RESOURCE_SCHEMAS, type ResourceKind } from '@/lib/registry';
import type { IssueTargetCount } from '@/lib/validate';
import { ActionError } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';
import { useEditorStore } from './editor-context';

/** Whether the registry would take this id as it stands (a clipped or odd id must be fixed in the plan instead). */
function registrable({ kind, id }: { kind: ResourceKind; id: string }): boolean {
  return RESOURCE_SCHEMAS[kind].safeParse(kind === 'llms' ? { name: id } : { id }).success;
}

/** An editor's fix for tasks routed to resources the registry lacks: a minimal entry for each, then validation sees them. */
export function AddMissingResourcesButton({ targets, noun }: { targets: readonly IssueTargetCount[]; noun: string }) {
  const store = useEditorStore();
  const add = useServerAction(addMissingResourcesAction, { onSuccess: (registry) => store.setState({ registry }) });
  const resources = targets.filter(registrable).map(({ kind, id }) => ({ kind, id }));
  if (resources.length === 0) return null;
  const label = `Add ${resources.length === 1 ? 'this' : 'these'} ${resources.length.toLocaleString('en')} ${noun}${resources.length === 1 ? '' : 's'} to the registry`;
  return (
    <div className="px-3 py-1.5">
      <button
        type="button"
        disabled={add.pending}
        onClick={() => void add.run({ resources })}
        className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60"
      >
        {add.pending ? 'Adding…' : label}
      </button>
      <ActionError message={add.error} className="mt-1 text-xs text-rose-700" />
    </div>
  );
}
