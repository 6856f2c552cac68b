import { queryOptions } from '@tanstack/react-query';
import { documentOf, type PlanResponse } from '@/lib/api/schemas';

/** A revision of this plan, read once: revisions never change. */
export function planRevisionQuery(planId: string, revision: number) {
  return queryOptions({
    queryKey: ['plan-revision', planId, revision],
    staleTime: Infinity,
    // A route, not a server action: actions queue one at a time behind whatever else the page runs.
    queryFn: async () => {
      const response = await fetch(`/api/plans/${encodeURIComponent(planId)}/revisions/${revision}`, { headers: { Accept: 'application/json' } });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
      return documentOf(body as PlanResponse);
    },
  });
}
