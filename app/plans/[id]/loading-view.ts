import type { PlanResponse } from '@/lib/api/schemas';
import { buildOverview, isGroupBy } from '@/lib/flow/overview';
import type { Database } from '@/lib/server/platform/db/client';
import { findOverviewTasks } from '@/lib/server/plans/overview-tasks';
import { getTasksNear } from '@/lib/server/plans/tasks-near';

// What the canvas of a big plan's page draws while the browser reads its tasks from the API:
// the page carries this picture rather than 20,000 tasks (ProgressivePlanEditor).

/** What a big plan's page draws while its tasks load: the tasks around the linked one, else the overview. */
export async function loadingView(db: Database, skeleton: Pick<PlanResponse, 'id' | 'revision' | 'subgraphs'>, taskCount: number, query: Record<string, string | string[] | undefined>) {
  // A link that asks for the overview opens on it, whatever task it names.
  const near = typeof query.task === 'string' && query.overview === undefined ? await getTasksNear(db, skeleton.id, skeleton.revision, query.task) : undefined;
  if (near) return { taskCount, near };
  const groupBy = isGroupBy(query.overview) ? query.overview : 'target';
  const tasks = (await findOverviewTasks(db, skeleton.id, skeleton.revision)) ?? [];
  const { aggregates, links, positions } = buildOverview(tasks, { groupBy, subgraphs: skeleton.subgraphs });
  return { taskCount, overview: { groupBy, aggregates, links, positions: Object.fromEntries(Object.entries(positions)) } };
}
