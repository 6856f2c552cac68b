'use client';

import { useState } from 'react';
import { createUserAction } from '@/app/admin/users/actions';
import { ROLES, ROLE_DUTIES, type Role } from '@/lib/auth/roles';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { CardForm } from '@/components/form/card-form';
import { FormStatus } from '@/components/form/form-status';
import { INPUT } from '@/components/form/styles';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';

/**
 * Adds a person who signs in with a username and password (there is no self sign-up), or a
 * service account for automation: no password, API tokens only, never a decision on a plan.
 */
export function CreateUserForm() {
  const create = useServerAction(createUserAction);
  const [service, setService] = useState(false);
  const created = create.data;
  return (
    <CardForm
      title="Create user"
      onSubmit={async (data, form) => {
        const username = String(data.get('username') ?? '');
        const role = String(data.get('role') ?? 'viewer') as Role;
        const input = service ? { username, role, service: true } : { username, password: String(data.get('password') ?? ''), role };
        if (await create.run(input)) {
          form.reset();
          setService(false);
        }
      }}
    >
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
      <ActionError message={create.error} className={BLOCK_ERROR} />
      {created && (
        <FormStatus>
          Created {created.service ? 'service account' : 'user'} {created.username}.
        </FormStatus>
      )}
      <SubmitButton pending={create.pending} pendingLabel="Creating…">
        Create user
      </SubmitButton>
    </CardForm>
  );
}
