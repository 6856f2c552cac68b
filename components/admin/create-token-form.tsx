'use client';

import { useState, useTransition } from 'react';
import { createTokenAction } from '@/app/admin/users/actions';
import { INPUT } from '@/components/form/styles';

interface Created {
  token: string;
  username: string;
  expires_at: string | null;
}

/** Issues a Bearer token for the admin or a service account; the secret is shown here once and never stored. */
export function CreateTokenForm({ currentUsername }: { currentUsername: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <form
      method="post"
      aria-labelledby="create-token-heading"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        const username = String(data.get('username') ?? '').trim();
        const label = String(data.get('label') ?? '').trim();
        const days = String(data.get('expires_in_days') ?? '').trim();
        const input = {
          username: username || undefined,
          label: label || undefined,
          expires_in_days: days ? Number(days) : undefined,
        };
        startTransition(async () => {
          const result = await createTokenAction(input);
          if (result.ok) {
            setError(null);
            setCreated({ token: result.data.token, username: result.data.username, expires_at: result.data.expires_at });
            form.reset();
          } else {
            setCreated(null);
            setError(result.error.message);
          }
        });
      }}
    >
      <h2 id="create-token-heading" className="text-lg font-semibold">
        Create API token
      </h2>
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
      {error && (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {error}
        </p>
      )}
      {created && (
        <div className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3">
          <label className="block text-sm font-medium text-slate-800">
            New API token
            <input
              readOnly
              value={created.token}
              aria-describedby="new-token-note"
              onFocus={(event) => event.currentTarget.select()}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
            />
          </label>
          <p id="new-token-note" className="text-xs text-amber-900">
            Token for {created.username}
            {created.expires_at ? `, expires ${new Date(created.expires_at).toUTCString()}` : ', no expiry'}. Copy it now: it will not be
            shown again. Send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>.
          </p>
        </div>
      )}
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? 'Creating…' : 'Create token'}
      </button>
    </form>
  );
}
