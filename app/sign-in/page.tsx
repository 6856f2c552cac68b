import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { safeNext } from '@/lib/auth/safe-next';
import { currentUser } from '@/lib/server/auth/page-auth';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in' };

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  return (
    <div className="mx-auto max-w-sm px-6 py-16">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to Plangate</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Accounts are made by an admin; there is no self sign-up.</p>
      <SignInForm next={next} />
    </div>
  );
}
