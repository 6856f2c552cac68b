'use client';

import { useActionState } from 'react';
import { signInAction, type SignInState } from '@/app/sign-in/actions';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { PRIMARY_BUTTON } from '@/components/form/styles';
import { SubmitButton } from '@/components/form/submit-button';
import { CredentialFields } from './credential-fields';
import { PasskeySignInButton } from './passkey-sign-in-button';

const INITIAL: SignInState = { error: null };

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState(signInAction, INITIAL);
  return (
    <form action={action} className="space-y-4" aria-describedby={state.error ? 'sign-in-error' : undefined}>
      <input type="hidden" name="next" value={next} />
      <CredentialFields
        // React resets the form after its action; the default keeps what was typed after a refusal.
        username={{ autoFocus: true, defaultValue: state.username ?? '' }}
      />
      <ActionError id="sign-in-error" message={state.error} className={BLOCK_ERROR} />
      <SubmitButton pending={pending} pendingLabel="Signing in…" className={`w-full ${PRIMARY_BUTTON}`}>
        Sign in
      </SubmitButton>
      <PasskeySignInButton next={next} />
    </form>
  );
}
