'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { usePathname } from 'next/navigation';
import { create } from 'zustand';
import { signInInlineAction } from '@/app/sign-in/actions';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { ModalDialog } from '@/components/form/modal-dialog';
import { INPUT, PRIMARY_BUTTON, SECONDARY_BUTTON } from '@/components/form/styles';
import { useServerAction, type ActionFailure } from '@/components/query/use-server-action';
import { hasRole, type Role } from '@/lib/auth/roles';
import { useCurrentUser } from './current-user';

// Signing in again without leaving the page: when a session ends mid-edit, whatever needs
// it asks here and waits; the page (and the unsaved edits in it) stays as it is. Only the
// user the page was rendered for may sign in here (their edits are replayed under their
// name); switching account is the sign-in page's job.

interface Request {
  reason: string;
  /** The least role the retried work needs. */
  role: Role;
  resolve: (signedIn: boolean) => void;
}

const usePrompt = create<{ request: Request | null; signIns: number }>(() => ({ request: null, signIns: 0 }));

/** Counts inline sign-ins on this page, so work paused for want of a session can resume on a change. */
export const useInlineSignIns = () => usePrompt((s) => s.signIns);

/**
 * Opens the inline sign-in and resolves true once someone with `role` has signed in, or
 * false when it is closed. A second ask while one is open waits on the same dialog.
 */
export function askToSignIn(reason: string, role: Role): Promise<boolean> {
  const open = usePrompt.getState().request;
  if (open) {
    return new Promise((resolve) => {
      const previous = open.resolve;
      open.resolve = (signedIn) => {
        previous(signedIn);
        resolve(signedIn);
      };
    });
  }
  return new Promise((resolve) => usePrompt.setState({ request: { reason, role, resolve } }));
}

/**
 * For any action that needs a session: when it fails for want of one, ask to sign in
 * again here and then run `retry` (the action again, with the page's current state).
 */
export function useSignInAgain(failure: ActionFailure | null, reason: string, role: Role, retry: () => unknown) {
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  });
  useEffect(() => {
    if (failure?.code !== 'unauthenticated') return;
    void askToSignIn(reason, role).then((signedIn) => {
      if (signedIn) latest.current();
    });
  }, [failure, reason, role]);
}

function settle(signedIn: boolean) {
  const { request, signIns } = usePrompt.getState();
  usePrompt.setState({ request: null, signIns: signedIn ? signIns + 1 : signIns });
  request?.resolve(signedIn);
}

/** Where the inline sign-in is drawn; mount once on a page that may ask for it. */
export function InlineSignInHost() {
  const request = usePrompt((s) => s.request);
  return request ? <InlineSignInDialog reason={request.reason} role={request.role} /> : null;
}

function InlineSignInDialog({ reason, role }: { reason: string; role: Role }) {
  const id = useId();
  const user = useCurrentUser();
  const [password, setPassword] = useState('');
  const [lacksRole, setLacksRole] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const pathname = usePathname();
  const switchHref = `/sign-in?next=${encodeURIComponent(pathname)}`;
  const signIn = useServerAction(signInInlineAction, {
    // The header's "Signed in as" is server-rendered; the editor keeps its own state.
    onSuccess: (account) => {
      setPassword('');
      if (hasRole(account.role, role)) settle(true);
      else
        setLacksRole(
          `${account.username} now has the ${account.role} role: this needs the ${role} role. Your changes are still here; ask an admin for the role, or open the sign-in page to switch account.`,
        );
    },
  });

  return (
    // Above any other dialog: the save that asked may have been started from one.
    <ModalDialog labelledBy={`${id}-title`} describedBy={`${id}-reason`} initialFocus={first} onCancel={() => settle(false)} layer="z-[60]">
      <form
        className="w-[24rem] space-y-3 rounded-lg bg-white p-5 shadow-xl"
        onSubmit={(e) => {
          e.preventDefault();
          setLacksRole(null);
          if (user) void signIn.run({ username: user.username, password, expected_username: user.username });
        }}
      >
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Sign in again
        </h2>
        <p id={`${id}-reason`} className="text-sm text-slate-600">
          {reason}
        </p>
        <label className="block text-sm font-medium text-slate-700">
          Username
          {/* Read-only: the edits waiting here are this user's and are saved in their name. */}
          <input name="username" autoComplete="username" readOnly value={user?.username ?? ''} className={`${INPUT} bg-slate-50`} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Password
          <input
            ref={first}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className={INPUT}
          />
        </label>
        <ActionError message={lacksRole ?? signIn.error} className={BLOCK_ERROR} />
        <p className="text-sm text-slate-600">
          Not {user?.username ?? 'you'}?{' '}
          <a href={switchHref} className="font-medium text-brand-700 underline hover:text-brand-800">
            Open the sign-in page to switch account
          </a>{' '}
          (unsaved changes here are not carried over).
        </p>
        <div className="flex justify-end gap-2 pt-1">
          <button type="button" className={SECONDARY_BUTTON} onClick={() => settle(false)}>
            Not now
          </button>
          <button type="submit" disabled={signIn.pending || !user} className={PRIMARY_BUTTON}>
            {signIn.pending ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
