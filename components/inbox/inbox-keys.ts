// The browser's inbox queries: one query-key family, so marking items read anywhere refreshes
// both the list and the header's count. Apart from ./inbox-api, which parses answers with zod:
// the header, on every page, needs only these.

export const INBOX_KEY = ['inbox'] as const;
export const INBOX_UNREAD_KEY = ['inbox', 'unread'] as const;
export const INBOX_LIST_KEY = ['inbox', 'list'] as const;

export const INBOX_PAGE_SIZE = 50;
