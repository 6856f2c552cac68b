import Form from 'next/form';
import Link from '@/components/ui/link';
import { SEARCH_MAX_LENGTH, type PlanListQuery } from '@/lib/api/list-schemas';
import { PlanStatus } from '@/lib/approval/plan-status';

const SORT_LABELS = { updated: 'Last updated', created: 'Created', title: 'Title' } as const;
const field = 'rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';
const label = 'block text-xs font-medium text-slate-700';

/**
 * Search, filter and sort as a GET form: submitting navigates to `/?…`, so the filtered
 * list is a link that can be shared, and it works before any script has loaded.
 */
export function PlanListFilters({ query }: { query: PlanListQuery }) {
  const status = query.status?.length === 1 ? query.status[0] : (query.status?.join(',') ?? '');
  return (
    <Form action="/" role="search" aria-label="Filter plans" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="min-w-56 flex-1">
        <label htmlFor="plan-search" className={label}>Search plans</label>
        <input id="plan-search" name="q" type="search" defaultValue={query.q ?? ''} maxLength={SEARCH_MAX_LENGTH} placeholder="Title or plan id" className={`${field} mt-1 w-full`} />
      </div>
      <div>
        <label htmlFor="plan-status" className={label}>Status</label>
        <select id="plan-status" name="status" defaultValue={status} className={`${field} mt-1`}>
          <option value="">Any status</option>
          {PlanStatus.options.map((option) => (
            <option key={option} value={option}>{option.replace('_', ' ')}</option>
          ))}
          {status.includes(',') ? <option value={status}>{status.replaceAll('_', ' ').replaceAll(',', ', ')}</option> : null}
        </select>
      </div>
      <div>
        <label htmlFor="plan-author" className={label}>Author</label>
        <input id="plan-author" name="author" type="text" defaultValue={query.author ?? ''} maxLength={64} placeholder="Username" className={`${field} mt-1 w-36`} />
      </div>
      <div>
        <label htmlFor="plan-sort" className={label}>Sort by</label>
        <select id="plan-sort" name="sort" defaultValue={query.sort} className={`${field} mt-1`}>
          {Object.entries(SORT_LABELS).map(([value, text]) => (
            <option key={value} value={value}>{text}</option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="plan-order" className={label}>Order</label>
        {/* Blank is the sort's own default (newest first, or A to Z), so changing the sort alone does what it says. */}
        <select id="plan-order" name="order" defaultValue={query.order ?? ''} className={`${field} mt-1`}>
          <option value="">Default for the sort</option>
          <option value="desc">Descending</option>
          <option value="asc">Ascending</option>
        </select>
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-600 focus:ring-offset-2">
          Apply
        </button>
        <Link href="/" className="text-sm font-medium text-brand-700 hover:underline">Clear filters</Link>
      </div>
    </Form>
  );
}
