import Link from '@/components/ui/link';

/** First and next page links under a paged list (cursor pages go forward only; the first page is the way back). */
export function ListPages({ firstHref, nextHref }: { firstHref: string | null; nextHref: string | null }) {
  if (!firstHref && !nextHref) return null;
  return (
    <nav aria-label="Pages" className="flex items-center justify-end gap-4 text-sm">
      {firstHref ? (
        <Link href={firstHref} className="font-medium text-brand-700 hover:underline">
          First page
        </Link>
      ) : null}
      {nextHref ? (
        <Link href={nextHref} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}

/** What a paged list could not show (a malformed or foreign cursor), with the way to its first page. */
export function ListProblem({ problem, firstHref }: { problem: string; firstHref: string }) {
  return (
    <div role="alert" className="rounded-lg border border-rose-300 bg-rose-50 p-4 text-sm text-rose-800">
      {problem}.{' '}
      <Link href={firstHref} className="font-medium underline">
        Show the first page
      </Link>
    </div>
  );
}
