import type { Metadata } from 'next';
import { NavLink } from '@/components/ui/nav-link';
import { signOutAction } from '@/app/sign-in/actions';
import { CurrentUserProvider } from '@/components/auth/current-user';
import { InboxHeaderLink } from '@/components/inbox/inbox-header-link';
import { QueryProvider } from '@/components/query/query-provider';
import { hasRole } from '@/lib/auth/roles';
import { currentUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { unreadCount } from '@/lib/server/inbox/inbox-service';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Plangate', template: '%s · Plangate' },
  description: 'See, fix, dry-run and approve agent plans before anything runs.',
  // public/icon.svg, the "P" mark of the header; app/manifest.ts is linked by Next itself.
  icons: { icon: { url: '/icon.svg', type: 'image/svg+xml' } },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  // The count is a courtesy: a failure to read it must not take every page down with it.
  const unread = user ? await unreadCount((await getDatabase()).db, user.username).catch(() => 0) : 0;
  return (
    <html lang="en">
      <body className="flex h-screen flex-col font-sans">
        {/* Keyed by the user: one person's cached inbox, marks or comments never show to the next one in this tab. */}
        <QueryProvider key={user?.username ?? "signed-out"}>
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="shrink-0 border-b border-slate-200 bg-white">
          <div className="mx-auto flex h-14 max-w-7xl items-center gap-8 px-6">
            <NavLink href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-slate-900">
              <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">
                P
              </span>
              Plangate
            </NavLink>
            <nav aria-label="Main" className="flex gap-6 text-sm text-slate-600">
              <NavLink href="/" className="hover:text-slate-900">
                Plans
              </NavLink>
              <NavLink href="/plans/new" className="hover:text-slate-900">
                New plan
              </NavLink>
              <NavLink href="/reviews" className="hover:text-slate-900">
                Reviews
              </NavLink>
              <NavLink href="/registry" className="hover:text-slate-900">
                Registry
              </NavLink>
              <NavLink href="/import" className="hover:text-slate-900">
                Import
              </NavLink>
              {user && hasRole(user.role, 'admin') && (
                <>
                  <NavLink href="/admin/users" className="hover:text-slate-900">
                    Users
                  </NavLink>
                  <NavLink href="/admin/webhooks" className="hover:text-slate-900">
                    Webhooks
                  </NavLink>
                </>
              )}
              <a href="/api/openapi.json" className="hover:text-slate-900">
                API
              </a>
            </nav>
            {user && (
              <div className="ml-auto flex items-center gap-4 text-sm">
                <InboxHeaderLink initialUnread={unread} />
                <NavLink href="/account" className="text-slate-600 hover:text-slate-900">
                  Account
                </NavLink>
                <form action={signOutAction} className="flex items-center gap-3 text-sm text-slate-600">
                  <span>
                    Signed in as <strong className="font-medium text-slate-900">{user.username}</strong>{' '}
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{user.role}</span>
                  </span>
                  <button type="submit" className="rounded-md border border-slate-300 px-2.5 py-1 hover:bg-slate-50">
                    Sign out
                  </button>
                </form>
              </div>
            )}
          </div>
        </header>
        <main id="main" className="min-h-0 flex-1 overflow-y-auto">
          <CurrentUserProvider user={user ? { username: user.username, role: user.role } : null}>{children}</CurrentUserProvider>
        </main>
        </QueryProvider>
      </body>
    </html>
  );
}
