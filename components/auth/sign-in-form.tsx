'use client';

import { useActionState } from 'react';
import { signInAction, type SignInState } from '@/app/sign-in/actions';
import { INPUT } from '@/components/form/styles';

const INITIAL: SignInState = { error: null };

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState(signInAction, INITIAL);
  return (
    <form action={action} className="space-y-4" aria-describedby={state.error ? 'sign-in-error' : undefined}>
      <input type="hidden" name="next" value={next} />
      <label className="block text-sm font-medium text-slate-700">
        Username
        <input
          name="username"
          autoComplete="username"
          required
          autoFocus
          // React resets the form after its action; the default keeps what was typed after a refusal.
          defaultValue={state.username ?? ''}
          className={INPUT}
        />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={INPUT}
        />
      </label>
      {state.error && (
        <p id="sign-in-error" role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {state.error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
