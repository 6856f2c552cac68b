import 'server-only';
import { PLAN_LIMITS, formatBytes, type PlanDocument, type PlannerTask } from '@/lib/plan';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { AppError } from '../platform/errors';
import { canonicalJson, sha256Of } from '../audit/digests';
import { hashesFromTaskHashes } from './document-hashes';
import type { NewRevision, StoredTask } from './plan-repository';
import { pagesOf, type StoredPage } from './revision-pages';

// What a revision stores, made from a whole document or from a base and a change: its body
// without tasks, its pages of task references, the tasks and pages the plan does not hold
// yet, its size and its hashes. Every check that a stored text needs (the size limit, characters
// PostgreSQL refuses) runs here, on what is new only.

/** A new revision's stored parts: all of it but who wrote it and why. */
export type RevisionParts = Omit<NewRevision, 'author' | 'message'>;

/** Tasks hashed between two turns of the event loop: a 20,000-task plan lets other requests in. */
const TASKS_PER_TURN = 2_000;

/**
 * Refuses what the database would refuse mid-transaction: PostgreSQL text cannot hold NUL
 * and jsonb rejects unpaired surrogates. JSON writes both as \u escapes (a well-formed pair
 * is written as is), so one scan of the serialised text finds them.
 */
export function checkStorableJson(json: string): void {
  if (/\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(json)) {
    throw new AppError('bad_request', 400, 'The plan contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored');
  }
}

export function checkPlanBytes(bytes: number): void {
  if (bytes > PLAN_LIMITS.maxPlanBytes) {
    throw new AppError('payload_too_large', 413, `The plan is ${formatBytes(bytes)}; the limit is ${formatBytes(PLAN_LIMITS.maxPlanBytes)}`);
  }
}

/** The document with its tasks taken out: what the revision row's body holds. */
export function skeletonOf(document: PlanDocument): PlanDocument {
  return { ...document, plan: { ...document.plan, planned_tasks: [] } };
}

/** The skeleton's size as JSON, after checking it can be stored; title and message count too. */
export function skeletonBytes(skeleton: PlanDocument, ...texts: Array<string | undefined>): number {
  const json = JSON.stringify([skeleton, texts]);
  checkStorableJson(json);
  return Buffer.byteLength(json, 'utf8');
}

/** The skeleton with no positions: a save of a big plan sizes its positions by what moved (positionBytes). */
export function withoutPositions(skeleton: PlanDocument): PlanDocument {
  return { ...skeleton, view: { ...skeleton.view, positions: {} } };
}

/** What one position adds to the document's JSON: `"key":{"x":…,"y":…},` (nothing for none). */
export function positionBytes(key: string, position: { x: number; y: number } | null | undefined): number {
  return position ? Buffer.byteLength(JSON.stringify(key), 'utf8') + Buffer.byteLength(JSON.stringify(position), 'utf8') + 2 : 0;
}

/** One task as stored: its canonical JSON's hash and size, after checking it can be stored. */
export function storedTask(task: PlannerTask): StoredTask {
  const json = canonicalJson(task);
  checkStorableJson(json);
  return { hash: sha256Of(json), body: task, bytes: Buffer.byteLength(json, 'utf8') };
}

/** What the plan stores already (the base's): tasks by hash and pages, not stored again. */
export interface KnownParts {
  tasks: ReadonlySet<string>;
  pages: readonly StoredPage[];
}

export const NOTHING_KNOWN: KnownParts = { tasks: new Set(), pages: [] };

/**
 * Assembles the parts from a skeleton (all of its view) and its tasks' references: the
 * hashes are taken over the whole, then the task positions move into the pages.
 */
export function revisionParts(skeleton: PlanDocument, taskIds: string[], taskHashes: string[], newTasks: StoredTask[], documentBytes: number, known: KnownParts): RevisionParts {
  checkPlanBytes(documentBytes);
  const { contentHash, bodyHash } = hashesFromTaskHashes(skeleton, taskHashes);
  const { pages, otherPositions } = pagesOf(taskIds, taskHashes, skeleton.view.positions, known.pages);
  const stored = new Set(known.pages.map((page) => page.hash));
  return {
    skeleton: { ...skeleton, view: { ...skeleton.view, positions: otherPositions } },
    pageHashes: pages.map((page) => page.hash),
    taskCount: taskIds.length,
    newTasks,
    newPages: pages.filter((page) => !stored.has(page.hash)),
    documentBytes,
    contentHash,
    bodyHash,
  };
}

/** The parts of a whole document. */
export async function partsOfDocument(document: PlanDocument, known: KnownParts, ...texts: Array<string | undefined>): Promise<RevisionParts> {
  const skeleton = skeletonOf(document);
  const tasks = document.plan.planned_tasks;
  const taskIds: string[] = [];
  const taskHashes: string[] = [];
  const newTasks: StoredTask[] = [];
  let bytes = skeletonBytes(skeleton, ...texts);
  for (let i = 0; i < tasks.length; i++) {
    if (i > 0 && i % TASKS_PER_TURN === 0) await yieldToEventLoop();
    const stored = storedTask(tasks[i]);
    taskIds.push(tasks[i].task_id);
    taskHashes.push(stored.hash);
    bytes += stored.bytes;
    if (!known.tasks.has(stored.hash)) newTasks.push(stored);
  }
  await yieldToEventLoop();
  return revisionParts(skeleton, taskIds, taskHashes, newTasks, bytes, known);
}
