import { defaultOrder, type PlanListQuery } from '@/lib/api/list-schemas';

const ORDER_TEXT = {
  updated: { desc: 'most recently updated first', asc: 'least recently updated first' },
  created: { desc: 'newest first', asc: 'oldest first' },
  title: { asc: 'by title, A to Z', desc: 'by title, Z to A' },
} as const;

/** What a plan list shows, in words, for the table's caption. */
export function planListCaption(query: PlanListQuery, paged: boolean): string {
  const parts = ['Plans'];
  if (query.q) parts.push(`matching “${query.q}”`);
  if (query.status?.length) parts.push(`with status ${query.status.map((s) => s.replace('_', ' ')).join(' or ')}`);
  if (query.author) parts.push(`created by ${query.author}`);
  const order = ORDER_TEXT[query.sort][query.order ?? defaultOrder(query.sort)];
  return `${parts.join(' ')}, ${order}${paged ? ' (a later page)' : ''}`;
}
