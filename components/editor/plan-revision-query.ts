import { queryOptions } from '@tanstack/react-query';
import { dataOrThrow, resultOf } from '@/lib/api/action-result';
import type { PlanResponse } from '@/lib/api/schemas';
import type { PlanDocument } from '@/lib/plan';

/** Where a revision is read; the plan page preloads it for a big plan, so no other header may be sent. */
export function planRevisionUrl(planId: string, revision: number): string {
  return `/api/plans/${encodeURIComponent(planId)}/revisions/${revision}`;
}

/** A revision of this plan, read once: revisions never change. */
export function planRevisionQuery(planId: string, revision: number) {
  return queryOptions({
    queryKey: ['plan-revision', planId, revision],
    staleTime: Infinity,
    // A route, not a server action: actions queue one at a time behind whatever else the page runs.
    queryFn: async () => {
      // As the page's preload asks for it (same URL, mode and credentials), so the preloaded answer is used.
      const response = await fetch(planRevisionUrl(planId, revision));
      const body = dataOrThrow(await resultOf<PlanResponse>(response, `Revision ${revision} could not be read`));
      // Not parsed again: the server stores a revision only once the plan schema has completed
      // it (StoredPlanDocument) and answers it as stored, or migrated to the current schema.
      // Parsing 20,000 tasks here held the page's first load for a quarter of a second.
      const { plan, job, subgraphs, view } = body;
      return { plan, job, subgraphs, view } satisfies PlanDocument;
    },
  });
}
