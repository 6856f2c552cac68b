'use client';

import { queryOptions, useQuery } from '@tanstack/react-query';
import { planRevisionQuery } from '@/components/editor/plan-revision-query';
import { dataOrThrow, resultOf } from '@/lib/api/action-result';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import { DryRunWorkbench, type DryRunWorkbenchProps } from './dry-run-workbench';

/**
 * The latest dry run of the plan's head, if it is of this revision: read as the API's JSON,
 * which the server writes from its stored pages of text. Rendering 20,000 tasks' results into
 * the page instead held the server's thread for most of a second.
 */
function latestDryRunQuery(planId: string, revision: number) {
  return queryOptions({
    queryKey: ['latest-dry-run', planId, revision],
    queryFn: async (): Promise<StoredDryRun | null> => {
      const response = await fetch(`/api/plans/${encodeURIComponent(planId)}/simulate`, { headers: { Accept: 'application/json' } });
      if (response.status === 404) return null;
      // A save since the page was rendered moved the head on: that dry run is of another revision.
      const run = dataOrThrow(await resultOf<StoredDryRun>(response, 'The latest dry run could not be read'));
      return run.revision === revision ? run : null;
    },
  });
}

/**
 * The dry-run page of a big plan: the page carries no tasks; the revision and its latest dry
 * run are read here, from the API, and the workbench opens once both are in.
 */
export function LoadedDryRunWorkbench({ taskCount, ...props }: Omit<DryRunWorkbenchProps, 'doc' | 'initial'> & { taskCount: number }) {
  const plan = useQuery(planRevisionQuery(props.planId, props.revision));
  const latest = useQuery(latestDryRunQuery(props.planId, props.revision));
  const failure = plan.error ?? latest.error;
  if (failure) {
    return (
      <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900">
        Revision {props.revision} could not be loaded: {failure.message}. Reload the page to try again.
      </p>
    );
  }
  if (!plan.data || latest.data === undefined) {
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading the {taskCount.toLocaleString('en-US')} tasks of revision {props.revision} and its latest dry run…
      </p>
    );
  }
  return <DryRunWorkbench {...props} doc={plan.data} initial={latest.data} />;
}
