import type { Metadata } from 'next';
import { loadPagedList, pageLinks } from '@/app/paged-list';
import { ListPages, ListProblem } from '@/components/list/list-pages';
import { ReviewQueueTable } from '@/components/plan/review-queue-table';
import { GatesWaitingTable } from '@/components/review/gates-waiting-table';
import { reviewQueue } from '@/lib/server/approval/approval-service';
import { reviewsRequestedFrom } from '@/lib/server/approval/requested-reviewers';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { gatesWaitingFor } from '@/lib/server/runs/waiting-gates';

export const metadata: Metadata = { title: 'Review queue' };

export default async function ReviewQueuePage({ searchParams }: PageProps<'/reviews'>) {
  const user = await requirePageUser('/reviews', searchParams);
  const { db } = await getDatabase();
  const [list, requested, gates] = await Promise.all([
    loadPagedList(await searchParams, (query) => reviewQueue(db, query)),
    reviewsRequestedFrom(db, user.username),
    gatesWaitingFor(db, user),
  ]);
  // eslint-disable-next-line react-hooks/purity -- rendered once per request; "now" is the request time
  const now = Date.now();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-6 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Review queue</h1>
        <p className="mt-1 text-sm text-slate-600">Plans submitted for review and gates of running plans, waiting longest first.</p>
      </div>
      {gates.length > 0 && (
        <section aria-labelledby="gates-heading" className="space-y-3">
          <h2 id="gates-heading" className="text-lg font-semibold">
            Gates waiting
          </h2>
          <p className="text-sm text-slate-600">Tasks of running plans that wait for your decision before they run.</p>
          <GatesWaitingTable rows={gates} now={now} />
        </section>
      )}
      {requested.length > 0 && (
        <section aria-labelledby="requested-heading" className="space-y-3">
          <h2 id="requested-heading" className="text-lg font-semibold">
            Requested from you
          </h2>
          <ReviewQueueTable
            caption="Plans whose submitter asked you by name to review them, oldest request first"
            whoLabel="Asked by"
            sinceLabel="Asked"
            rows={requested.map((plan) => ({ id: plan.id, title: plan.title, revision: plan.revision, who: plan.requested_by, since: plan.requested_at }))}
            now={now}
          />
        </section>
      )}
      <section aria-labelledby="queue-heading" className="space-y-3">
        <h2 id="queue-heading" className="text-lg font-semibold">
          All plans in review
        </h2>
        {list.page === null ? (
          <ListProblem problem={list.problem} firstHref="/reviews" />
        ) : list.page.items.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white p-12 text-center text-slate-600">
            Nothing is waiting for review.
          </div>
        ) : (
          <>
            <ReviewQueueTable
              caption="Plans in review, oldest first"
              whoLabel="Submitted by"
              sinceLabel="Waiting since"
              rows={list.page.items.map((plan) => ({ id: plan.id, title: plan.title, revision: plan.revision, who: plan.submitted_by, since: plan.updated_at }))}
              now={now}
            />
            <ListPages {...pageLinks('/reviews', {}, list.query, list.page.next_cursor)} />
          </>
        )}
      </section>
    </div>
  );
}
