'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { createUserAction } from '@/app/admin/users/actions';
import { ROLES, ROLE_DUTIES, type Role } from '@/lib/auth/roles';
import { INPUT } from '@/components/form/styles';

/**
 * Adds a person who signs in with a username and password (there is no self sign-up), or a
 * service account for automation: no password, API tokens only, never a decision on a plan.
 */
export function CreateUserForm() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [service, setService] = useState(false);
  return (
    <form
      // A click before hydration submits natively: POST keeps the fields out of the URL and logs.
      method="post"
      aria-labelledby="create-user-heading"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        // Not a form action: React resets a form after its action runs, which would throw
        // away what the admin typed when the server refuses it.
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        const username = String(data.get('username') ?? '');
        const role = String(data.get('role') ?? 'viewer') as Role;
        const input = service ? { username, role, service: true } : { username, password: String(data.get('password') ?? ''), role };
        startTransition(async () => {
          const result = await createUserAction(input);
          if (result.ok) {
            setError(null);
            setCreated(`${result.data.service ? 'service account' : 'user'} ${result.data.username}`);
            form.reset();
            setService(false);
            router.refresh();
          } else {
            setCreated(null);
            setError(result.error.message);
          }
        });
      }}
    >
      <h2 id="create-user-heading" className="text-lg font-semibold">
        Create user
      </h2>
      <label className="block text-sm font-medium text-slate-700">
        Username
        <input name="username" autoComplete="off" required spellCheck={false} className={INPUT} />
      </label>
      <label className="flex items-start gap-2 text-sm font-medium text-slate-700">
        <input
          name="service"
          type="checkbox"
          checked={service}
          onChange={(event) => setService(event.currentTarget.checked)}
          aria-describedby="service-hint"
          className="mt-0.5"
        />
        <span>
          Service account
          <span id="service-hint" className="block text-xs font-normal text-slate-500">
            Automation, not a person: no password, API tokens only, and it can never approve, reject or request changes.
          </span>
        </span>
      </label>
      {!service && (
        <label className="block text-sm font-medium text-slate-700">
          Password
          <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} className={INPUT} />
        </label>
      )}
      <label className="block text-sm font-medium text-slate-700">
        Role
        <select name="role" defaultValue="viewer" className={INPUT}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role} — {ROLE_DUTIES[role]}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {error}
        </p>
      )}
      {created && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Created {created}.
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? 'Creating…' : 'Create user'}
      </button>
    </form>
  );
}
