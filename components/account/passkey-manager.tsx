'use client';

import { startRegistration } from '@simplewebauthn/browser';
import { useState } from 'react';
import { passkeyRegistrationOptionsAction, registerPasskeyAction, revokePasskeyAction } from '@/app/account/actions';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { CardForm } from '@/components/form/card-form';
import { FormStatus } from '@/components/form/form-status';
import { INPUT, SMALL_BUTTON } from '@/components/form/styles';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import type { PublicKey } from '@/lib/api/passkey-schemas';
import { PASSKEYS_KEY } from './passkey-api';

const COLUMNS: DataColumn[] = [
  { id: 'name', header: 'Name', sortable: true },
  { id: 'alg', header: 'Algorithm' },
  { id: 'kid', header: 'Key id', className: 'font-mono text-xs' },
  { id: 'added', header: 'Added', sortable: true },
  { id: 'status', header: 'Status' },
  { id: 'actions', header: 'Actions' },
];

const ALG_NAMES: Record<PublicKey['alg'], string> = { ES256: 'ES256 (ECDSA P-256)', EdDSA: 'Ed25519' };

const day = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';

function RevokeButton({ passkey }: { passkey: PublicKey }) {
  const revoke = useServerAction(revokePasskeyAction, { invalidate: [PASSKEYS_KEY] });
  return (
    <span className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={revoke.pending}
        aria-label={`Revoke passkey ${passkey.label}`}
        onClick={() => {
          if (!window.confirm(`Revoke "${passkey.label}"? Decisions it signs from now on will not count; those it signed before still verify.`)) return;
          void revoke.run({ kid: passkey.kid });
        }}
      >
        {revoke.pending ? 'Revoking…' : 'Revoke'}
      </button>
      <ActionError message={revoke.error} />
    </span>
  );
}

/** The signed-in person's passkeys: add one (the browser's own dialog), see each, revoke one. */
export function PasskeyManager({ passkeys }: { passkeys: PublicKey[] }) {
  const register = useServerAction(registerPasskeyAction, { invalidate: [PASSKEYS_KEY] });
  const [ceremony, setCeremony] = useState(false);

  const add = async (data: FormData, form: HTMLFormElement) => {
    setCeremony(true);
    try {
      const options = await passkeyRegistrationOptionsAction({});
      if (!options.ok) return register.fail(options.error.message);
      let response;
      try {
        response = await startRegistration({ optionsJSON: options.data });
      } catch (error) {
        const cancelled = error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
        return register.fail(cancelled ? 'The browser did not create a passkey (cancelled or timed out). Nothing was registered.' : `The browser could not create a passkey: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (await register.run({ response, label: String(data.get('label') ?? '') })) form.reset();
    } finally {
      setCeremony(false);
    }
  };

  return (
    <div className="space-y-6">
      <DataTable
        caption="Your passkeys"
        columns={COLUMNS}
        empty="No passkeys yet."
        rows={passkeys.map((passkey) => ({
          key: passkey.kid,
          sortValues: { name: passkey.label, added: Date.parse(passkey.created_at) },
          cells: [
            passkey.label,
            ALG_NAMES[passkey.alg],
            <span key="kid" title={passkey.kid}>
              {passkey.kid.slice(0, 16)}…
            </span>,
            day(passkey.created_at),
            passkey.revoked_at ? `Revoked ${day(passkey.revoked_at)}` : 'Active',
            passkey.revoked_at ? '—' : <RevokeButton key="revoke" passkey={passkey} />,
          ],
        }))}
      />
      <CardForm title="Add a passkey" onSubmit={(data, form) => void add(data, form)}>
        <label className="block text-sm font-medium text-slate-700">
          Name
          <input name="label" autoComplete="off" maxLength={100} placeholder="e.g. Work laptop" aria-describedby="passkey-name-hint" className={INPUT} />
          <span id="passkey-name-hint" className="mt-1 block text-xs font-normal text-slate-500">
            Optional; helps you tell your passkeys apart. Your browser or security key will ask you to verify yourself.
          </span>
        </label>
        <SubmitButton pending={ceremony || register.pending} pendingLabel="Waiting for your authenticator…">
          Add a passkey
        </SubmitButton>
        {register.data && <FormStatus>Added the passkey &ldquo;{register.data.label}&rdquo;. It is published at /api/keys.</FormStatus>}
        <ActionError message={register.error} className={BLOCK_ERROR} />
      </CardForm>
    </div>
  );
}
