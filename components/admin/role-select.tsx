'use client';

import { useId, useState } from 'react';
import { setUserRoleAction } from '@/app/admin/users/actions';
import { ROLES, type Role } from '@/lib/auth/roles';
import { ActionError } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';

/** One user's role, changed as soon as another is picked; a refused change snaps back. */
export function RoleSelect({ username, role }: { username: string; role: Role }) {
  const errorId = useId();
  const [value, setValue] = useState<Role>(role);
  const change = useServerAction(setUserRoleAction, { onError: () => setValue(role) });
  return (
    <span className="flex flex-wrap items-center gap-2">
      <select
        aria-label={`Role of ${username}`}
        aria-describedby={change.error ? errorId : undefined}
        aria-invalid={change.error ? true : undefined}
        value={value}
        disabled={change.pending}
        onChange={(event) => {
          const next = event.target.value as Role;
          setValue(next);
          void change.run({ username, role: next });
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:opacity-60"
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {change.pending && <span className="text-xs text-slate-500">Saving…</span>}
      <ActionError id={errorId} message={change.error} />
    </span>
  );
}
