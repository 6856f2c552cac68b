import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { PlannerTask } from '@/lib/plan';
import type { Database } from '../platform/db/client';
import { planRevisions } from '../platform/db/schema';
import { readPageTexts } from './plan-repository';
import { pageTasksText } from './revision-body';

// What the overview of a big plan is drawn from: each task's id, routing and dependencies,
// projected by the database so the page can draw the overview before (and without) reading
// 10,000 whole tasks. The columns are named in full for the reason given in revision-body.ts.
// It reads the stored bodies as written, not through the document migrations
// (lib/plan/migrations): a migration that touches these fields must be applied here too.

const overviewFields = (task: string) =>
  `jsonb_strip_nulls(jsonb_build_object(
    'task_id', ${task}->'task_id', 'execution_type', ${task}->'execution_type',
    'agent_id', ${task}->'agent_id', 'tool_id', ${task}->'tool_id', 'function_id', ${task}->'function_id',
    'parameters', jsonb_build_object('sub_type', ${task}->'parameters'->'sub_type'),
    'dependencies', coalesce(${task}->'dependencies', '[]'::jsonb)))`;

/** Each task's id, routing and dependencies. */
export type OverviewTask = Pick<PlannerTask, 'task_id' | 'execution_type' | 'agent_id' | 'tool_id' | 'function_id' | 'parameters' | 'dependencies'>;

/** The revision's tasks as the overview needs them, in plan order; undefined when there is no such revision. */
export async function findOverviewTasks(db: Database, id: string, revision: number): Promise<OverviewTask[] | undefined> {
  const [row] = await db
    .select({ pageHashes: planRevisions.pageHashes })
    .from(planRevisions)
    .where(and(eq(planRevisions.planId, id), eq(planRevisions.revision, revision)));
  if (!row) return undefined;
  // A few pages per query, as text: aggregated in one statement, 20,000 tasks held the server's thread (PGlite runs on it) for 300-400 ms.
  const tasks = JSON.parse(`[${await readPageTexts(db, row.pageHashes, (hashes) => pageTasksText(id, hashes, sql.raw(overviewFields('stored.body'))))}]`) as OverviewTask[];
  // A task written under an older schema may lack its dependencies.
  return tasks.map((task) => (Array.isArray(task.dependencies) ? task : { ...task, dependencies: [] }));
}
