'use client';

import { deleteResourceAction } from '@/app/registry/actions';
import type { ResourceKind } from '@/lib/registry/schema';
import { ActionError } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';

/** Deletes one resource after a confirm(); a refusal is said beside the button. */
export function DeleteResourceButton({ kind, singular, resourceKey }: { kind: ResourceKind; singular: string; resourceKey: string }) {
  const remove = useServerAction(deleteResourceAction);
  return (
    <>
      <button
        type="button"
        aria-label={`Delete ${resourceKey}`}
        disabled={remove.pending}
        onClick={() => {
          if (!window.confirm(`Delete the ${singular} "${resourceKey}" from the registry? Plans that use it will fail validation.`)) return;
          void remove.run({ kind, key: resourceKey });
        }}
        className="rounded-md border border-rose-200 bg-white px-2.5 py-1 text-xs font-medium text-rose-700 hover:bg-rose-50 disabled:opacity-60"
      >
        {remove.pending ? 'Deleting…' : 'Delete'}
      </button>
      <ActionError message={remove.error} className="basis-full text-xs text-rose-700" />
    </>
  );
}
