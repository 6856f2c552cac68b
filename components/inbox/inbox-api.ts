import { dataOrThrow, resultOf } from '@/lib/api/action-result';
import { InboxResponse } from '@/lib/api/inbox-schemas';

// The browser's reads of the inbox, checked against the API's schema (their query keys: ./inbox-keys).

export async function fetchInbox(params: { limit: number; before?: number }): Promise<InboxResponse> {
  const query = new URLSearchParams({ limit: String(params.limit) });
  if (params.before !== undefined) query.set('before', String(params.before));
  const response = await fetch(`/api/inbox?${query}`, { headers: { Accept: 'application/json' } });
  return InboxResponse.parse(dataOrThrow(await resultOf<unknown>(response, 'The inbox could not be loaded')));
}
