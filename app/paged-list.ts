import { LIST_LIMIT, PageQuery } from '@/lib/api/list-schemas';
import { AppError } from '@/lib/server/platform/errors';
import { parseQuery } from '@/lib/server/platform/http/read-query';

// The app's paged lists (revisions, history, the review queue) walk the same limit/cursor
// pages the REST lists do, from the page's query string, so a page is a link to share.

type SearchParams = Record<string, string | string[] | undefined>;

/** One page of a list, or why none was read: a malformed limit, or a cursor that is not this list's. */
export type PagedList<T> = { query: PageQuery } & ({ page: T; problem: null } | { page: null; problem: string });

/**
 * Reads `limit` and `cursor` from a page's query string (its other parameters are the
 * page's own) and loads that page; what the list refuses is a message, never a 500.
 */
export async function loadPagedList<T>(search: SearchParams, load: (query: PageQuery) => Promise<T>): Promise<PagedList<T>> {
  const params = new URLSearchParams();
  for (const name of Object.keys(PageQuery.shape)) {
    const value = search[name];
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, one);
  }
  let query = PageQuery.parse({});
  try {
    query = parseQuery(params, PageQuery);
    return { query, page: await load(query), problem: null };
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400) throw error;
    return { query, page: null, problem: error.message };
  }
}

/** `path` with the page's own parameters, and the list's limit (when not the default) and cursor. */
export function pageHref(path: string, own: Record<string, string | number | undefined>, query: PageQuery, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(own)) if (value !== undefined) params.set(name, String(value));
  if (query.limit !== LIST_LIMIT.default) params.set('limit', String(query.limit));
  if (cursor) params.set('cursor', cursor);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The first and next page links of a paged list: no first page link on the first page, no next one on the last. */
export function pageLinks(path: string, own: Record<string, string | number | undefined>, query: PageQuery, nextCursor: string | null) {
  return {
    firstHref: query.cursor ? pageHref(path, own, query) : null,
    nextHref: nextCursor ? pageHref(path, own, query, nextCursor) : null,
  };
}
