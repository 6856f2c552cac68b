import type { Metadata } from 'next';
import { GatesToDecide } from '@/components/inbox/gates-to-decide';
import { InboxView } from '@/components/inbox/inbox-view';
import { INBOX_PAGE_SIZE } from '@/components/inbox/inbox-keys';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { listInbox } from '@/lib/server/inbox/inbox-service';
import { gatesToDecide } from '@/lib/server/runs/gate-inbox';

export const metadata: Metadata = { title: 'Inbox' };

export default async function InboxPage({ searchParams }: PageProps<'/inbox'>) {
  const user = await requirePageUser('/inbox', searchParams);
  const { db } = await getDatabase();
  const [initial, gates] = await Promise.all([listInbox(db, user.username, { limit: INBOX_PAGE_SIZE }), gatesToDecide(db, user)]);
  // eslint-disable-next-line react-hooks/purity -- rendered once per request; "now" is the request time
  const renderedAt = Date.now();
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Inbox</h1>
        <p className="mt-1 text-sm text-slate-600">Reviews requested from you, decisions on your plans, comments and mentions, and approvals that no longer stand.</p>
      </div>
      <GatesToDecide gates={gates} now={renderedAt} />
      <InboxView initial={initial} renderedAt={renderedAt} />
    </div>
  );
}
