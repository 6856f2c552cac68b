'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { setUserRoleAction } from '@/app/admin/users/actions';
import { ROLES, type Role } from '@/lib/auth/roles';

/** One user's role, changed as soon as another is picked; a refused change snaps back. */
export function RoleSelect({ username, role }: { username: string; role: Role }) {
  const router = useRouter();
  const errorId = useId();
  const [pending, startTransition] = useTransition();
  const [value, setValue] = useState<Role>(role);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex flex-wrap items-center gap-2">
      <select
        aria-label={`Role of ${username}`}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
        value={value}
        disabled={pending}
        onChange={(event) => {
          const next = event.target.value as Role;
          setValue(next);
          startTransition(async () => {
            const result = await setUserRoleAction({ username, role: next });
            if (result.ok) {
              setError(null);
              router.refresh();
            } else {
              setValue(role);
              setError(result.error.message);
            }
          });
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:opacity-60"
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {pending && <span className="text-xs text-slate-500">Saving…</span>}
      {error && (
        <span id={errorId} role="alert" className="text-xs text-rose-700">
          {error}
        </span>
      )}
    </span>
  );
}
