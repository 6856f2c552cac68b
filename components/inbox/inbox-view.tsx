'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { markInboxReadAction } from '@/app/inbox/actions';
import { ActionError } from '@/components/form/action-error';
import { SECONDARY_BUTTON, SMALL_BUTTON } from '@/components/form/styles';
import { RelativeTime } from '@/components/plan/relative-time';
import { useServerAction } from '@/components/query/use-server-action';
import type { InboxItem, InboxResponse } from '@/lib/api/inbox-schemas';
import { fetchInbox } from './inbox-api';
import { INBOX_KEY, INBOX_LIST_KEY, INBOX_PAGE_SIZE } from './inbox-keys';
import { KIND_LABELS, inboxItemLink } from './inbox-item-link';

/** The signed-in user's inbox, newest first, with the first page rendered by the server. */
export function InboxView({ initial, renderedAt }: { initial: InboxResponse; renderedAt: number }) {
  const inbox = useInfiniteQuery({
    queryKey: INBOX_LIST_KEY,
    queryFn: ({ pageParam }) => fetchInbox({ limit: INBOX_PAGE_SIZE, before: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    initialData: { pages: [initial], pageParams: [undefined] },
    initialDataUpdatedAt: renderedAt,
  });
  // Marking read changes the list and the header's count; both live under INBOX_KEY.
  const mark = useServerAction(markInboxReadAction, { invalidate: [INBOX_KEY], refresh: 'never' });
  const pages = inbox.data?.pages ?? [initial];
  const items = pages.flatMap((page) => page.items);
  const unread = pages[0].unread;
  // Relative times count from when the list was fetched, the same on server and client.
  const now = inbox.dataUpdatedAt || renderedAt;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-700" role="status">
          {unread === 0 ? 'Nothing unread.' : `${unread} unread`}
        </p>
        <button type="button" className={`${SECONDARY_BUTTON} ml-auto`} disabled={unread === 0 || mark.pending} onClick={() => void mark.run({ all: true })}>
          Mark all read
        </button>
      </div>
      <ActionError message={mark.error} className="block text-sm text-rose-700" />
      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-12 text-center text-slate-600">
          Nothing yet. Review requests, gates waiting for your decision, decisions on your plans, comments and voided approvals show up here.
        </div>
      ) : (
        <ul aria-label="Inbox items" className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
          {items.map((item) => (
            <InboxEntry key={item.id} item={item} now={now} onRead={() => void mark.run({ ids: [item.id] })} pending={mark.pending} />
          ))}
        </ul>
      )}
      {inbox.hasNextPage && (
        <button type="button" className={SECONDARY_BUTTON} disabled={inbox.isFetchingNextPage} onClick={() => void inbox.fetchNextPage()}>
          {inbox.isFetchingNextPage ? 'Loading…' : 'Show older'}
        </button>
      )}
      {inbox.isError && (
        <p role="alert" className="text-sm text-rose-700">
          {inbox.error.message}
        </p>
      )}
    </div>
  );
}

function InboxEntry({ item, now, onRead, pending }: { item: InboxItem; now: number; onRead: () => void; pending: boolean }) {
  const unread = item.read_at === null;
  const link = inboxItemLink(item);
  return (
    // Unread is said in words and drawn with a bar and bold text, never by colour alone.
    <li className={`flex flex-wrap items-start gap-x-4 gap-y-1 border-l-4 px-4 py-3 ${unread ? 'border-brand-600 bg-brand-50' : 'border-transparent'}`}>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
          {unread && <span className="rounded bg-slate-900 px-1.5 py-0.5 font-semibold uppercase tracking-wide text-white">Unread</span>}
          <span className="font-medium text-slate-800">{KIND_LABELS[item.kind]}</span>
          <span aria-hidden>·</span>
          <span>by {item.actor}</span>
          <span aria-hidden>·</span>
          <RelativeTime iso={item.created_at} now={now} />
        </div>
        <p className={`text-sm ${unread ? 'font-semibold text-slate-900' : 'text-slate-700'}`}>{item.summary}</p>
        <Link href={link.href} className="text-sm font-medium text-brand-700 hover:underline" onClick={unread ? onRead : undefined}>
          {link.text}
        </Link>
      </div>
      {unread && (
        <button type="button" className={SMALL_BUTTON} disabled={pending} onClick={onRead}>
          Mark read<span className="sr-only">: {item.summary}</span>
        </button>
      )}
    </li>
  );
}
