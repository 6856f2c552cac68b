'use client';

import { useId } from 'react';
import { createWebhookAction } from '@/app/admin/webhooks/actions';
import { ActionError } from '@/components/form/action-error';
import { CardForm } from '@/components/form/card-form';
import { fieldErrors } from '@/components/form/field-errors';
import { OneTimeSecret } from '@/components/form/one-time-secret';
import { INPUT } from '@/components/form/styles';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@/lib/api/webhook-schemas';

const EVENT_HINTS: Record<WebhookEvent, string> = {
  'plan.submitted': 'a plan was sent to review',
  'plan.approved': 'an approver approved a plan',
  'plan.changes_requested': 'an approver requested changes',
  'plan.rejected': 'an approver rejected a plan',
  'approval.stale': 'a new revision or a registry change voided an approval',
  'comment.created': 'a comment was written',
  'run.awaiting_approval': 'a run reached a gate and waits for an approver',
  'run.needs_replan': 'a task of a run failed after its retries',
  'run.succeeded': 'a run finished, every task succeeded',
  'run.failed': 'a run failed',
};

const FIELDS = ['url', 'events'] as const;
const FIELD_ERROR = 'mt-1 block text-sm font-normal text-rose-700';

/** Adds a webhook; its signing secret is shown here once and never again. */
export function WebhookForm() {
  const urlErrorId = useId();
  const eventsErrorId = useId();
  const create = useServerAction(createWebhookAction);
  const { byField, rest } = fieldErrors(create.failure, FIELDS);
  const created = create.data;
  return (
    <CardForm
      title="Add webhook"
      onSubmit={async (data, form) => {
        const input = { url: String(data.get('url') ?? '').trim(), events: data.getAll('events').map(String) as WebhookEvent[] };
        if (await create.run(input)) form.reset();
      }}
    >
      <div>
        <label className="block text-sm font-medium text-slate-700">
          URL
          <input
            name="url"
            type="url"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="https://hooks.example.com/plangate"
            aria-describedby={byField.url ? urlErrorId : undefined}
            aria-invalid={byField.url ? true : undefined}
            className={INPUT}
          />
        </label>
        <ActionError id={urlErrorId} message={byField.url} className={FIELD_ERROR} />
      </div>
      <fieldset aria-describedby={byField.events ? eventsErrorId : undefined}>
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
        <ActionError id={eventsErrorId} message={byField.events} className={FIELD_ERROR} />
      </fieldset>
      <SubmitButton pending={create.pending} pendingLabel="Adding…">
        Add webhook
      </SubmitButton>
      <ActionError message={rest} className="block text-sm text-rose-700" />
      {created && (
        <OneTimeSecret label="Signing secret" value={created.secret}>
          <p>
            Webhook added for <span className="break-all font-mono">{created.url}</span>. Its signing secret is shown only now.
          </p>
          <p>
            Give it to the receiver: each delivery carries <code>X-Plangate-Signature: sha256=</code> the hex HMAC-SHA256 of{' '}
            <code>&lt;X-Plangate-Timestamp&gt;.&lt;body&gt;</code> under this secret.
          </p>
        </OneTimeSecret>
      )}
    </CardForm>
  );
}
