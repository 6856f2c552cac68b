'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { deleteWebhookAction } from '@/app/admin/webhooks/actions';
import { SMALL_BUTTON } from '@/components/form/styles';

/** Deletes a webhook after a confirmation; its delivery log goes with it. */
export function WebhookDeleteButton({ id, url }: { id: string; url: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={pending}
        aria-label={`Delete webhook ${url}`}
        className={SMALL_BUTTON}
        onClick={() => {
          if (!window.confirm(`Delete the webhook for ${url}? Its delivery log is deleted too, and pending deliveries are not sent.`)) return;
          startTransition(async () => {
            const result = await deleteWebhookAction({ id });
            if (result.ok) {
              setError(null);
              router.refresh();
            } else setError(result.error.message);
          });
        }}
      >
        {pending ? 'Deleting…' : 'Delete'}
      </button>
      {error && (
        <span role="alert" className="text-xs text-rose-700">
          {error}
        </span>
      )}
    </span>
  );
}
