import Link from '@/components/ui/link';
import { RelativeTime } from '@/components/plan/relative-time';
import { StatusChip } from '@/components/plan/status-chip';
import { TableView, type DataColumn } from '@/components/ui/table-view';
import type { PlanListItem } from '@/lib/api/list-schemas';

// Not sortable by its headers: the rows are one page of a list the server orders (the
// filters' "Sort by" does that, for every page), so sorting one page here would mislead.
const COLUMNS: DataColumn[] = [
  { id: 'title', header: 'Title' },
  { id: 'status', header: 'Status' },
  { id: 'tasks', header: 'Tasks', numeric: true, className: 'text-slate-700' },
  { id: 'author', header: 'Author', className: 'text-slate-700' },
  { id: 'revision', header: 'Revision', className: 'tabular-nums text-slate-700' },
  { id: 'hash', header: 'Content hash', className: 'font-mono text-xs text-slate-600' },
  { id: 'updated', header: 'Updated', className: 'text-slate-600' },
];

/** One page of plans. `caption` says what the list shows (filters and order). */
export function PlanTable({ plans, caption, now }: { plans: PlanListItem[]; caption: string; now: number }) {
  return (
    <TableView
      caption={caption}
      captionVisible
      columns={COLUMNS}
      empty="No plans to show."
      rows={plans.map((plan) => ({
        key: plan.id,
        className: 'hover:bg-slate-50',
        cells: [
          <Link key="title" href={`/plans/${plan.id}`} className="font-medium text-brand-700 hover:underline">
            {plan.title}
          </Link>,
          <StatusChip key="status" status={plan.status} />,
          plan.task_count,
          plan.author,
          `r${plan.revision}`,
          <span key="hash" title={plan.content_hash}>
            {plan.content_hash.slice(7, 19)}
          </span>,
          <RelativeTime key="updated" iso={plan.updated_at} now={now} />,
        ],
      }))}
    />
  );
}
