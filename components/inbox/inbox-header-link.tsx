'use client';

import { useQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { INBOX_UNREAD_KEY } from './inbox-keys';

const POLL_MS = 15_000;

/** "Inbox" in the header, with the unread count in its name ("Inbox, 3 unread"), polled. */
export function InboxHeaderLink({ initialUnread }: { initialUnread: number }) {
  const { data: unread = initialUnread } = useQuery({
    queryKey: INBOX_UNREAD_KEY,
    // Loaded when it first polls, not with every page: it parses with zod, which a page's first
    // picture (a big plan's preview) does without.
    queryFn: async () => (await (await import('./inbox-api')).fetchInbox({ limit: 1 })).unread,
    initialData: initialUnread,
    refetchInterval: POLL_MS,
  });
  const shown = unread > 99 ? '99+' : String(unread);
  // The name says the count in words ("Inbox, 3 unread"). The space after "Inbox" is real
  // text, so the visible label "Inbox 3" stays part of that name (WCAG 2.5.3).
  return (
    <Link
      href="/inbox"
      aria-label={unread > 0 ? `Inbox, ${shown} unread` : undefined}
      className="inline-flex items-center gap-1.5 rounded-md px-1.5 py-0.5 text-slate-700 hover:text-slate-900"
    >
      Inbox{' '}
      {unread > 0 && <span className="min-w-5 rounded-full bg-brand-600 px-1.5 text-center text-xs font-semibold text-white tabular-nums">{shown}</span>}
    </Link>
  );
}
