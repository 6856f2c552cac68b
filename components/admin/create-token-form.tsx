'use client';

import { createTokenAction } from '@/app/admin/users/actions';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { CardForm } from '@/components/form/card-form';
import { OneTimeSecret } from '@/components/form/one-time-secret';
import { INPUT } from '@/components/form/styles';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';

const optional = (data: FormData, name: string) => String(data.get(name) ?? '').trim() || undefined;

/** Issues a Bearer token for the admin or a service account; the secret is shown here once and never stored. */
export function CreateTokenForm({ currentUsername }: { currentUsername: string }) {
  const create = useServerAction(createTokenAction);
  const created = create.data;
  return (
    <CardForm
      title="Create API token"
      onSubmit={async (data, form) => {
        const days = optional(data, 'expires_in_days');
        const input = { username: optional(data, 'username'), label: optional(data, 'label'), expires_in_days: days ? Number(days) : undefined };
        if (await create.run(input)) form.reset();
      }}
    >
      <label className="block text-sm font-medium text-slate-700">
        Username
        <input
          name="username"
          autoComplete="off"
          spellCheck={false}
          placeholder={currentUsername}
          aria-describedby="token-username-hint"
          className={INPUT}
        />
        <span id="token-username-hint" className="mt-1 block text-xs font-normal text-slate-500">
          Optional; leave empty for a token of your own. Otherwise the name of a service account: a token acts in its
          owner&apos;s name, so people create their own tokens, signed in.
        </span>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Label
        <input name="label" autoComplete="off" maxLength={200} placeholder="e.g. CI pipeline" className={INPUT} />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Expires in days
        <input
          name="expires_in_days"
          type="number"
          inputMode="numeric"
          min={1}
          max={3650}
          step={1}
          aria-describedby="token-expiry-hint"
          className={INPUT}
        />
        <span id="token-expiry-hint" className="mt-1 block text-xs font-normal text-slate-500">
          Optional; empty means 90 days.
        </span>
      </label>
      <ActionError message={create.error} className={BLOCK_ERROR} />
      {created && (
        <OneTimeSecret label="New API token" value={created.token}>
          <p>
            Token for {created.username}
            {created.expires_at ? `, expires ${new Date(created.expires_at).toUTCString()}` : ', no expiry'}. Copy it now: it will not be
            shown again. Send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>.
          </p>
        </OneTimeSecret>
      )}
      <SubmitButton pending={create.pending} pendingLabel="Creating…">
        Create token
      </SubmitButton>
    </CardForm>
  );
}
