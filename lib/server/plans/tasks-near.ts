import 'server-only';
import type { PlanDocument, TasksNear } from '@/lib/plan';
import type { Database } from '../platform/db/client';
import * as repo from './plan-repository';

// A link to one task of a big plan opens on that task. The page draws the tasks saved
// around it at once, read from the revision by reference, while the browser reads the whole
// plan; the editor then takes over at the same view. A few hundred task bodies instead of
// 20,000: the task is on screen before the plan has arrived.

type Position = PlanDocument['view']['positions'][string];

/**
 * How far around the task the page draws, in canvas units. A linked task opens at zoom 1.1,
 * where a 1440×900 window's canvas shows about 790 × 550 units: this covers a canvas three
 * times as wide and tall. Bounded, so a crowded spot costs no more than `limit` bodies.
 */
export const NEAR_AREA = { halfWidth: 1_200, halfHeight: 800, limit: 300 };

/**
 * The tasks saved around `taskId` in this revision, the task itself first and the others
 * nearest first; undefined when the revision has no such task or no saved position for it (the page
 * then shows the overview while the plan loads).
 */
export async function getTasksNear(db: Database, id: string, revision: number, taskId: string): Promise<TasksNear | undefined> {
  const row = await repo.findRevisionRefs(db, id, revision);
  if (!row) return undefined;
  const refs = await repo.findReferences(db, row);
  // The body's own positions (those that are not a task's), then its pages'.
  const saved = (row.body as { view?: { positions?: Record<string, Position> } }).view?.positions ?? {};
  const positions: Record<string, Position> = { ...saved, ...refs.pagePositions };
  const center = Object.hasOwn(positions, taskId) ? positions[taskId] : undefined;
  const linked = refs.taskIds.indexOf(taskId);
  if (!center || linked < 0) return undefined;
  const near = nearest(refs.taskIds, positions, linked, center);
  const wanted = near.map((i) => refs.taskHashes[i]!);
  const stored = await repo.findTasks(db, id, wanted);
  const bodies = wanted.map((hash) => stored.get(hash)?.body);
  // A missing body is the integrity check's to report; the editor reads the whole revision next.
  if (bodies.some((body) => body === undefined)) return undefined;
  // Through the same migrations and parse as the whole revision, so the editor shows these tasks as they will be.
  const body = row.body as { plan?: object };
  const document = repo.revisionDocument({ ...row, body: { ...body, plan: { ...body.plan, planned_tasks: bodies } } });
  return { taskId, tasks: document.plan.planned_tasks, positions: Object.fromEntries(near.map((i) => [refs.taskIds[i]!, positions[refs.taskIds[i]!]!])) };
}

/** Indexes of the tasks within NEAR_AREA of `center`, the linked one first (others may share its spot), then nearest first, at most NEAR_AREA.limit. */
function nearest(taskIds: readonly string[], positions: Readonly<Record<string, Position>>, linked: number, center: Position): number[] {
  const found: Array<{ i: number; distance: number }> = [];
  // A repeated id (validation reports it) is drawn once, as the editor draws it.
  const seen = new Set<string>();
  for (let i = 0; i < taskIds.length; i++) {
    if (seen.has(taskIds[i]!)) continue;
    seen.add(taskIds[i]!);
    const position = Object.hasOwn(positions, taskIds[i]!) ? positions[taskIds[i]!] : undefined;
    if (!position) continue;
    const dx = Math.abs(position.x - center.x);
    const dy = Math.abs(position.y - center.y);
    if (dx <= NEAR_AREA.halfWidth && dy <= NEAR_AREA.halfHeight) found.push({ i, distance: dx * dx + dy * dy });
  }
  found.sort((a, b) => Number(b.i === linked) - Number(a.i === linked) || a.distance - b.distance || a.i - b.i);
  return found.slice(0, NEAR_AREA.limit).map((f) => f.i);
}
