import Link from '@/components/ui/link';
import { PlanListFilters } from '@/components/plan-list/plan-list-filters';
import { planListCaption } from '@/components/plan-list/plan-list-caption';
import { planListHref } from '@/components/plan-list/plan-list-href';
import { PlanTable } from '@/components/plan-list/plan-table';
import { PlanListQuery } from '@/lib/api/list-schemas';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { AppError } from '@/lib/server/platform/errors';
import { parseQuery } from '@/lib/server/platform/http/read-query';
import { listPlans } from '@/lib/server/plans/plan-service';

/** The page's query string as the REST list reads it, so `/?…` and `GET /api/plans?…` agree. */
function searchOf(query: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, one);
  }
  return params;
}

export default async function PlansPage({ searchParams }: PageProps<'/'>) {
  await requirePageUser('/', searchParams);
  let query: PlanListQuery;
  let problem: string | null = null;
  try {
    query = parseQuery(searchOf(await searchParams), PlanListQuery);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problem = error.message;
    query = PlanListQuery.parse({});
  }
  const { db } = await getDatabase();
  // A link to a page past a changed list, or a hand-edited cursor, shows the message and no list.
  const page = problem ? null : await listPlans(db, query).catch((error: unknown) => {
    if (!(error instanceof AppError) || error.status !== 400) throw error;
    problem = error.message;
    return null;
  });
  const filtered = Boolean(query.q || query.status?.length || query.author);
  // A server component renders once per request, so "now" is the request time, as intended.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-6 py-8">
      <div className="flex items-end justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Plans</h1>
          <p className="mt-1 text-sm text-slate-600">
            Every plan a planner produced, waiting for a person to read, fix and approve it.
          </p>
        </div>
      </div>
      <PlanListFilters query={query} />
      {problem ? (
        <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-4 text-sm text-rose-800">
          {problem}.{' '}
          <Link href="/" className="font-medium underline">Show all plans</Link>
        </div>
      ) : !page || page.plans.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-12 text-center text-slate-600">
          {filtered || query.cursor ? (
            <>No plans match these filters. <Link href="/" className="font-medium text-brand-700 underline">Clear filters</Link></>
          ) : (
            <>No plans yet. Create one with <code className="font-mono text-sm">POST /api/plans</code>.</>
          )}
        </div>
      ) : (
        <>
          <PlanTable plans={page.plans} caption={planListCaption(query, Boolean(query.cursor))} now={now} />
          <nav aria-label="Pages" className="flex items-center justify-end gap-4 text-sm">
            {query.cursor ? (
              <Link href={planListHref(query)} className="font-medium text-brand-700 hover:underline">First page</Link>
            ) : null}
            {page.next_cursor ? (
              <Link href={planListHref(query, page.next_cursor)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50">
                Next page
              </Link>
            ) : null}
          </nav>
        </>
      )}
    </div>
  );
}
