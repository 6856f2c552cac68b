import type { Review } from '@/lib/api/gate-schemas';
import { StatusChip } from './status-chip';

/** Every decision on a plan, newest first; a superseded approval stays, marked as such. */
export function ReviewList({ reviews }: { reviews: Review[] }) {
  if (reviews.length === 0) return <p className="text-sm text-slate-500">No decisions yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" aria-label="Decisions">
      {reviews.map((review) => (
        <li key={review.id} className="py-2">
          <div className="flex flex-wrap items-center gap-2">
            <StatusChip status={review.decision} />
            <span className="font-medium">{review.reviewer}</span>
            <span className="text-slate-500">revision {review.revision}</span>
            {review.superseded_at && (
              <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700">superseded</span>
            )}
            <time className="ml-auto text-xs text-slate-500" dateTime={review.created_at}>
              {review.created_at.replace('T', ' ').slice(0, 16)} UTC
            </time>
          </div>
          {review.comment && <p className="mt-1 whitespace-pre-wrap text-slate-700">{review.comment}</p>}
        </li>
      ))}
    </ul>
  );
}
