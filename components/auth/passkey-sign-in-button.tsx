'use client';

import { startAuthentication } from '@simplewebauthn/browser';
import { useState, type MouseEvent } from 'react';
import { passkeySignInAction, passkeySignInOptionsAction } from '@/app/sign-in/actions';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { SECONDARY_BUTTON } from '@/components/form/styles';

/**
 * Signs in with a passkey instead of the password: the username typed above names the
 * account, the authenticator proves it (user verified), and the page goes on to `next`.
 */
export function PasskeySignInButton({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const signIn = async (event: MouseEvent<HTMLButtonElement>) => {
    const field = event.currentTarget.form?.elements.namedItem('username');
    const username = field instanceof HTMLInputElement ? field.value : '';
    setPending(true);
    setError(null);
    try {
      const options = await passkeySignInOptionsAction({ username });
      if (!options.ok) return setError(options.error.message);
      let response: unknown;
      try {
        response = await startAuthentication({ optionsJSON: options.data });
      } catch {
        return setError('No passkey answered. Try again, or use your password.');
      }
      const result = await passkeySignInAction({ username, response, next });
      if (!result.ok) return setError(result.error.message);
      window.location.assign(result.data.next);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="space-y-2">
      <button type="button" className={`w-full ${SECONDARY_BUTTON}`} disabled={pending} onClick={(event) => void signIn(event)}>
        {pending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </button>
      <ActionError message={error} className={BLOCK_ERROR} />
    </div>
  );
}
