'use client';

import Link from '@/components/ui/link';
import type { PasskeySigning } from './use-passkey-signing';

/**
 * Beside the decision buttons: whether this decision will be signed with a passkey. Offered
 * (checked) to whoever has one; said, not asked, when the server requires it; silent for
 * someone without a passkey where signing is optional, so the unsigned path looks as before.
 */
export function PasskeyChoice({ signing, className = 'text-xs text-slate-700' }: { signing: PasskeySigning; className?: string }) {
  if (signing.required && !signing.available) {
    return (
      <p className={className}>
        Decisions here must be signed with a passkey, and you have none yet: add one on{' '}
        <Link href="/account" className="font-medium text-brand-700 underline">
          your account page
        </Link>
        .
      </p>
    );
  }
  if (signing.required) return <p className={className}>Your passkey signs this decision (required here); your authenticator will ask you to confirm.</p>;
  if (!signing.available) return null;
  return (
    <label className={`flex items-center gap-2 ${className}`}>
      <input type="checkbox" checked={signing.chosen} onChange={(event) => signing.setChosen(event.target.checked)} />
      Sign with passkey
    </label>
  );
}
