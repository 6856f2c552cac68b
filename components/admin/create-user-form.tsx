'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { createUserAction } from '@/app/admin/users/actions';
import { ROLES, ROLE_DUTIES, type Role } from '@/lib/auth/roles';
import { INPUT } from '@/components/form/styles';

/** Adds a user who signs in with a username and password (there is no self sign-up). */
export function CreateUserForm() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
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
        const input = {
          username: String(data.get('username') ?? ''),
          password: String(data.get('password') ?? ''),
          role: String(data.get('role') ?? 'viewer') as Role,
        };
        startTransition(async () => {
          const result = await createUserAction(input);
          if (result.ok) {
            setError(null);
            setCreated(result.data.username);
            form.reset();
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
      <label className="block text-sm font-medium text-slate-700">
        Password
        <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} className={INPUT} />
      </label>
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
          Created user {created}.
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
