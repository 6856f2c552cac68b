'use client';

import { deleteWebhookAction } from '@/app/admin/webhooks/actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';

/** Deletes a webhook after a confirmation; its delivery log goes with it. */
export function WebhookDeleteButton({ id, url }: { id: string; url: string }) {
  const remove = useServerAction(deleteWebhookAction);
  return (
    <span className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={remove.pending}
        aria-label={`Delete webhook ${url}`}
        className={SMALL_BUTTON}
        onClick={() => {
          if (!window.confirm(`Delete the webhook for ${url}? Its delivery log is deleted too, and pending deliveries are not sent.`)) return;
          void remove.run({ id });
        }}
      >
        {remove.pending ? 'Deleting…' : 'Delete'}
      </button>
      <ActionError message={remove.error} />
    </span>
  );
}
