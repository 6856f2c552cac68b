'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { createWebhookAction } from '@/app/admin/webhooks/actions';
import { INPUT, PRIMARY_BUTTON } from '@/components/form/styles';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@/lib/api/webhook-schemas';

const EVENT_HINTS: Record<WebhookEvent, string> = {
  'plan.submitted': 'a plan was sent to review',
  'plan.approved': 'an approver approved a plan',
  'plan.changes_requested': 'an approver requested changes',
  'plan.rejected': 'an approver rejected a plan',
  'approval.stale': 'a new revision or a registry change voided an approval',
  'comment.created': 'a comment was written (not sent yet: comments are to come)',
};

interface Created {
  id: string;
  url: string;
  secret: string;
}

/** Adds a webhook; its signing secret is shown here once and never again. */
export function WebhookForm() {
  const router = useRouter();
  const errorId = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <form
      method="post"
      aria-labelledby="add-webhook-heading"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        const input = { url: String(data.get('url') ?? '').trim(), events: data.getAll('events').map(String) as WebhookEvent[] };
        startTransition(async () => {
          const result = await createWebhookAction(input);
          if (result.ok) {
            setError(null);
            setCreated({ id: result.data.id, url: result.data.url, secret: result.data.secret });
            form.reset();
            router.refresh();
          } else {
            setCreated(null);
            setError(result.error.details?.map((d) => d.message).join('; ') || result.error.message);
          }
        });
      }}
    >
      <h2 id="add-webhook-heading" className="text-lg font-semibold">
        Add webhook
      </h2>
      <label className="block text-sm font-medium text-slate-700">
        URL
        <input
          name="url"
          type="url"
          required
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.example.com/plangate"
          aria-describedby={error ? errorId : undefined}
          className={INPUT}
        />
      </label>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <div className="mt-2 space-y-1">
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="flex items-start gap-2 text-sm text-slate-700">
              <input type="checkbox" name="events" value={event} defaultChecked={event !== 'comment.created'} className="mt-1" />
              <span>
                <code className="font-mono text-xs">{event}</code> <span className="text-slate-600">— {EVENT_HINTS[event]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={pending} className={PRIMARY_BUTTON}>
        {pending ? 'Adding…' : 'Add webhook'}
      </button>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      )}
      {created && (
        <div role="status" className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900">
          <p>
            Webhook added for <span className="break-all font-mono">{created.url}</span>. Its signing secret, shown only now:
          </p>
          <label className="block text-sm font-medium">
            Signing secret
            <input readOnly value={created.secret} onFocus={(e) => e.currentTarget.select()} className={`${INPUT} font-mono`} />
          </label>
          <p>
            Give it to the receiver: each delivery carries <code>X-Plangate-Signature: sha256=</code> the hex HMAC-SHA256 of{' '}
            <code>&lt;X-Plangate-Timestamp&gt;.&lt;body&gt;</code> under this secret.
          </p>
        </div>
      )}
    </form>
  );
}
