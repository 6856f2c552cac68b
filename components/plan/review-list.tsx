import type { Review, ReviewRequest } from '@/lib/api/gate-schemas';
import { StatusChip } from './status-chip';

/** Who the submitter asked by name, and whether each has decided on that content yet. */
function RequestedReviewers({ requested, reviews }: { requested: ReviewRequest[]; reviews: Review[] }) {
  if (requested.length === 0) return null;
  return (
    <div className="mb-3 text-sm">
      <h3 className="font-medium text-slate-900">Requested reviewers</h3>
      <ul className="mt-1 flex flex-wrap gap-2" aria-label="Requested reviewers">
        {requested.map((request) => {
          const decided = reviews.some((review) => review.reviewer === request.reviewer && review.revision >= request.revision);
          return (
            <li key={request.reviewer} className="rounded bg-slate-100 px-2 py-0.5 text-slate-800">
              {request.reviewer} <span className="text-xs text-slate-600">{decided ? '· decided' : '· waiting'}</span>
            </li>
          );
        })}
      </ul>
      <p className="mt-1 text-xs text-slate-600">Asked by {[...new Set(requested.map((r) => r.requested_by))].join(', ')}.</p>
    </div>
  );
}

/** Every decision on a plan, newest first; a superseded approval stays, marked as such. */
export function ReviewList({ reviews, requested = [] }: { reviews: Review[]; requested?: ReviewRequest[] }) {
  if (reviews.length === 0) {
    return (
      <>
        <RequestedReviewers requested={requested} reviews={reviews} />
        <p className="text-sm text-slate-500">No decisions yet.</p>
      </>
    );
  }
  return (
    <>
      <RequestedReviewers requested={requested} reviews={reviews} />
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
    </>
  );
}
