import type { Metadata } from 'next';
import { inArray } from 'drizzle-orm';
import { redirect } from 'next/navigation';
import { DemoAccounts, type DemoAccount } from '@/components/auth/demo-accounts';
import { SignInForm } from '@/components/auth/sign-in-form';
import { safeNext } from '@/lib/auth/safe-next';
import { currentUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { user } from '@/lib/server/platform/db/schema';
import { DEMO_USERS, demoUsersEnabled } from '@/lib/server/demo/seed-demo-users';

export const metadata: Metadata = { title: 'Sign in' };

/** The demo accounts that still exist, when this server makes demo users; else none. */
async function demoAccounts(): Promise<DemoAccount[]> {
  const { db, kind } = await getDatabase();
  if (!demoUsersEnabled(kind)) return [];
  const names = DEMO_USERS.map((demo) => demo.username);
  const existing = new Set((await db.select({ username: user.username }).from(user).where(inArray(user.username, names))).map((row) => row.username));
  return DEMO_USERS.filter((demo) => existing.has(demo.username));
}

export default async function SignInPage({ searchParams }: PageProps<'/sign-in'>) {
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  const accounts = await demoAccounts();
  return (
    <div className="mx-auto max-w-sm px-6 py-16">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to Plangate</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Accounts are made by an admin; there is no self sign-up.</p>
      <SignInForm next={next} />
      <DemoAccounts accounts={accounts} />
    </div>
  );
}
