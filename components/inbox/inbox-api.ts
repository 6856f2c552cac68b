import { InboxResponse } from '@/lib/api/inbox-schemas';

// The browser's reads of the inbox: one query-key family, so marking items read anywhere
// refreshes both the list and the header's count.

export const INBOX_KEY = ['inbox'] as const;
export const INBOX_UNREAD_KEY = ['inbox', 'unread'] as const;
export const INBOX_LIST_KEY = ['inbox', 'list'] as const;

export const INBOX_PAGE_SIZE = 50;

export async function fetchInbox(params: { limit: number; before?: number }): Promise<InboxResponse> {
  const query = new URLSearchParams({ limit: String(params.limit) });
  if (params.before !== undefined) query.set('before', String(params.before));
  const response = await fetch(`/api/inbox?${query}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`The inbox could not be loaded (HTTP ${response.status})`);
  return InboxResponse.parse(await response.json());
}
