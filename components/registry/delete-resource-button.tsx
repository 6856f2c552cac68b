'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { deleteResourceAction } from '@/app/registry/actions';
import type { ResourceKind } from '@/lib/registry/schema';

/** Deletes one resource after a confirm(); a refusal is reported through onError. */
export function DeleteResourceButton({
  kind,
  singular,
  resourceKey,
  onError,
}: {
  kind: ResourceKind;
  singular: string;
  resourceKey: string;
  onError: (message: string | null) => void;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      aria-label={`Delete ${resourceKey}`}
      disabled={pending}
      onClick={() => {
        if (!window.confirm(`Delete the ${singular} "${resourceKey}" from the registry? Plans that use it will fail validation.`)) return;
        startTransition(async () => {
          const result = await deleteResourceAction({ kind, key: resourceKey });
          if (result.ok) {
            onError(null);
            router.refresh();
          } else {
            onError(result.error.message);
          }
        });
      }}
      className="rounded-md border border-rose-200 bg-white px-2.5 py-1 text-xs font-medium text-rose-700 hover:bg-rose-50 disabled:opacity-60"
    >
      {pending ? 'Deleting…' : 'Delete'}
    </button>
  );
}
