import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { ListPages, ListProblem } from '@/components/list/list-pages';
import { PlanDiffView } from '@/components/plan/plan-diff-view';
import { RelativeTime } from '@/components/plan/relative-time';
import { TableView, type DataColumn } from '@/components/ui/table-view';
import { LIST_LIMIT } from '@/lib/api/list-schemas';
import { diffPlans } from '@/lib/plan';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { getRevisionPage } from '@/lib/server/plans/plan-service';
import { loadPagedList, pageHref, pageLinks } from '@/app/paged-list';
import { loadPlanForPage, loadPlanSkeletonForPage } from '../load-plan';

type Props = PageProps<'/plans/[id]/revisions'>;

export const metadata: Metadata = { title: 'Revisions' };

// Not sortable by its headers: the rows are one page of a list the server orders.
const REVISION_COLUMNS: DataColumn[] = [
  { id: 'revision', header: 'Revision' },
  { id: 'message', header: 'Message', className: 'text-slate-700' },
  { id: 'author', header: 'Author', className: 'text-slate-600' },
  { id: 'saved', header: 'Saved', className: 'text-slate-600' },
  { id: 'hash', header: 'Hash', className: 'font-mono text-xs text-slate-500' },
];

// A repeated parameter (?to=1&to=2) is not a revision number: the fallback.
function pick(value: string | string[] | undefined, fallback: number, max: number): number {
  const n = typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}

export default async function RevisionsPage({ params, searchParams }: Props) {
  const { id } = await params;
  await requirePageUser(`/plans/${encodeURIComponent(id)}/revisions`, searchParams);
  // Its title and head revision: the skeleton, not 20,000 tasks.
  const { plan: head } = await loadPlanSkeletonForPage(id);
  const { db } = await getDatabase();
  const query = await searchParams;
  const list = await loadPagedList(query, (page) => getRevisionPage(db, id, page));
  const to = pick(query.to, head.head_revision, head.head_revision);
  const from = pick(query.from, Math.max(1, to - 1), head.head_revision);
  // Revisions are numbered 1 to the head without gaps, so the comparison offers them all without reading the list.
  const numbers = Array.from({ length: head.head_revision }, (_, i) => i + 1);
  const path = `/plans/${id}/revisions`;
  const compared = { from: query.from === undefined ? undefined : from, to: query.to === undefined ? undefined : to };
  const [before, after] = await Promise.all([loadPlanForPage(id, from), loadPlanForPage(id, to)]);
  // eslint-disable-next-line react-hooks/purity -- rendered once per request; "now" is the request time
  const now = Date.now();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-6 py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link href="/" className="hover:text-slate-900">
          Plans
        </Link>{' '}
        /{' '}
        <Link href={`/plans/${id}`} className="hover:text-slate-900">
          {head.title}
        </Link>{' '}
        / Revisions
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight">Revisions of {head.title}</h1>
      {list.page === null ? (
        <ListProblem problem={list.problem} firstHref={pageHref(path, compared, list.query)} />
      ) : (
        <>
          <TableView
            caption="Revisions, oldest first"
            columns={REVISION_COLUMNS}
            rows={list.page.revisions.map((r) => ({
              key: String(r.revision),
              cells: [
                <Link key="revision" href={`/plans/${id}/r/${r.revision}`} className="font-medium text-brand-700 hover:underline">
                  Revision {r.revision}
                </Link>,
                <>
                  {r.message || '—'}
                  {r.layout_only && (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700" title="Same content hash as the revision before: only nodes moved, so reviews and approvals stand">
                      layout only
                    </span>
                  )}
                </>,
                r.author,
                <RelativeTime key="saved" iso={r.created_at} now={now} />,
                r.content_hash.slice(7, 19),
              ],
            }))}
          />
          <ListPages {...pageLinks(path, compared, list.query, list.page.next_cursor)} />
        </>
      )}
      <section aria-labelledby="compare-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <form className="flex flex-wrap items-end gap-3" method="get">
          {/* Comparing keeps the page of the list above. */}
          {list.query.limit !== LIST_LIMIT.default && <input type="hidden" name="limit" value={list.query.limit} />}
          {list.query.cursor && <input type="hidden" name="cursor" value={list.query.cursor} />}
          <h2 id="compare-heading" className="mr-auto text-lg font-semibold">
            Changes from revision {from} to {to}
          </h2>
          <label className="text-sm">
            From{' '}
            <select name="from" defaultValue={from} className="rounded border border-slate-300 px-2 py-1">
              {numbers.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            To{' '}
            <select name="to" defaultValue={to} className="rounded border border-slate-300 px-2 py-1">
              {numbers.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded bg-brand-600 px-3 py-1 text-sm font-semibold text-white">
            Compare
          </button>
        </form>
        <PlanDiffView diff={diffPlans(before, after)} />
      </section>
    </div>
  );
}
