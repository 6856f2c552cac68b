import { defaultOrder, LIST_LIMIT, type PlanListQuery } from '@/lib/api/list-schemas';

/**
 * The `/` link for a plan list query, leaving out what is the default, so a shared link
 * says only what was chosen (`/?q=fetch&status=in_review`).
 */
export function planListHref(query: PlanListQuery, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.status?.length) params.set('status', query.status.join(','));
  if (query.author) params.set('author', query.author);
  if (query.sort !== 'updated') params.set('sort', query.sort);
  if (query.order && query.order !== defaultOrder(query.sort)) params.set('order', query.order);
  if (query.limit !== LIST_LIMIT.default) params.set('limit', String(query.limit));
  if (cursor) params.set('cursor', cursor);
  const search = params.toString();
  return search ? `/?${search}` : '/';
}
