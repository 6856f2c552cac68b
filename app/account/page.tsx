import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { PasskeyManager } from '@/components/account/passkey-manager';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { signedDecisionsRequired } from '@/lib/server/passkeys/decision-signatures';
import { listPasskeys } from '@/lib/server/passkeys/passkey-service';

export const metadata: Metadata = { title: 'Account' };

export default async function AccountPage({ searchParams }: PageProps<'/account'>) {
  const user = await requirePageUser('/account', searchParams);
  const { db } = await getDatabase();
  const passkeys = await listPasskeys(db, user.username);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
        <p className="mt-1 text-sm text-slate-600">
          Signed in as <strong className="font-medium text-slate-900">{user.username}</strong> ({user.role}).
        </p>
      </div>
      <section aria-labelledby="passkeys-heading" className="space-y-3">
        <h2 id="passkeys-heading" className="text-lg font-semibold">
          Passkeys
        </h2>
        <p className="text-sm text-slate-600">
          A passkey signs your decisions on plans and at run gates: your authenticator signs the hash of exactly what you decided (the plan,
          its revision, content and resources hashes, your verdict and the time), and anyone can check it against your public key at{' '}
          <Link href="/api/keys" prefetch={false} className="font-mono text-brand-700 underline">
            /api/keys
          </Link>{' '}
          without trusting this server. Keep more than one to rotate them; a revoked key stays published, so what it signed before still verifies.
        </p>
        <p className="text-sm text-slate-600">
          {signedDecisionsRequired()
            ? 'This server requires every decision to be signed with a passkey.'
            : 'Signing is optional on this server: with a passkey, your decisions are signed unless you untick "Sign with passkey".'}
        </p>
        <PasskeyManager passkeys={passkeys} />
      </section>
    </div>
  );
}
