import 'server-only';
import {
  HASH_VERSION,
  PLAN_LIMITS,
  PlanDocument,
  PlanDocumentInput,
  completeDocument,
  completeTask,
  freshDocumentDefaults,
  newPlanDocument,
  type ParsedTaskDataInput,
  type PlannerTask,
  type TaskDataUpdate,
} from '@/lib/plan';
import { CURRENT_SCHEMA_VERSION } from '@/lib/plan/migrations';
import { stringifyAround } from '@/lib/api/json-splice';
import { withFirstLayout } from '@/lib/layout/first-layout';
import type { CreatePlanRequest, PatchPlanRequest, PlanResponse, SavePlanRequest } from '@/lib/api/schemas';
import { PlanListQuery, type PageQuery, type PlanListPage } from '@/lib/api/list-schemas';
import { titleIssue, type ValidationResult } from '@/lib/validate';
import type { Database } from '../platform/db/client';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { getRegistry } from '../registry/registry-service';
import { runComputeJob } from '../platform/compute/compute-pool';
import { AppError, notFound } from '../platform/errors';
import { PLAN_ID_PATTERN, newPlanId } from './plan-id';
import { serverContentHash } from './document-hashes';
import { NOTHING_KNOWN, checkStorableJson, partsOfDocument, positionBytes, revisionParts, skeletonBytes, skeletonOf, storedTask, withoutPositions, type KnownParts, type RevisionParts } from './revision-parts';
import * as repo from './plan-repository';
import { listPlanPage, listRevisionPage } from './plan-list-queries';

// The one place plans are created, read and saved: route handlers and server actions
// both call these, so the REST API and the UI cannot drift apart.

export function checkPlanId(id: string): void {
  if (!PLAN_ID_PATTERN.test(id)) throw notFound(`Plan "${id.slice(0, 64)}"`);
}

/**
 * Fills what a client left out of a saved plan (TaskDataUpdate leaves it unset) from the base
 * revision, instead of from defaults: otherwise a random task_id and "now" timestamps would
 * change the content hash of a plan whose content did not change, and `plan: {}` would
 * delete every task. Omitted `planned_tasks` keep the base's tasks; tasks sent without
 * timestamps keep theirs. What is still missing after this (a new task's id and times) the
 * save fills (completeDocument).
 */
function withBaseDefaults(sent: TaskDataUpdate, base: PlanDocument['plan']): ParsedTaskDataInput {
  const baseTasks = new Map(base.planned_tasks.map((task) => [task.task_id, task]));
  const planned_tasks =
    sent.planned_tasks?.map((task) => {
      const prior = task.task_id === undefined ? undefined : baseTasks.get(task.task_id);
      if (!prior) return task;
      return { ...task, creation_time: task.creation_time ?? prior.creation_time, last_update_time: task.last_update_time ?? prior.last_update_time };
    }) ?? base.planned_tasks;
  // A key present but undefined is a field left out (JSON has no undefined; a caller in code may).
  const given = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined));
  return { ...base, ...given, planned_tasks };
}

function toIso(date: Date): string {
  return date.toISOString();
}

function toResponse(plan: repo.PlanRow, revision: repo.RevisionRow): PlanResponse {
  return responseOf(plan, revision, repo.revisionDocument(revision));
}

function responseOf(plan: repo.PlanRow, revision: Omit<repo.RevisionRow, 'body'>, body: Pick<PlanDocument, 'plan' | 'job' | 'subgraphs' | 'view'>): PlanResponse {
  return {
    id: plan.id,
    title: plan.title,
    status: plan.status as PlanResponse['status'],
    revision: revision.revision,
    head_revision: plan.headRevision,
    content_hash: revision.contentHash,
    plan: body.plan,
    job: body.job,
    subgraphs: body.subgraphs,
    view: body.view,
    author: revision.author,
    message: revision.message,
    created_at: toIso(revision.createdAt),
  };
}

/** `actor` is who the revision is by: four-eyes and the audit trail depend on it. */
export async function createPlan(db: Database, input: CreatePlanRequest, actor: string) {
  // The request was just parsed (up to 10 MB): let other requests in before parsing again.
  await yieldToEventLoop();
  // Its first layout is made in a compute worker (a plan made from a request body's text or a
  // file is laid out in the worker that reads it); a busy pool leaves it to the editor.
  const document = await withFirstLayout((tasks) => runComputeJob('layOutTasks', { tasks }), newPlanDocument(input));
  await yieldToEventLoop();
  return storeNewPlan(db, document, input.title, input.message, actor);
}

/**
 * POST /api/plans from its body's text: parsing 20,000 tasks and filling their ids and
 * times is seconds of work, done in a compute worker (lib/compute/jobs.ts).
 */
export async function createPlanFromText(db: Database, bodyText: string, actor: string) {
  const made = await runComputeJob('createRequest', { bodyText });
  await yieldToEventLoop();
  return storeNewPlan(db, made.document, made.title, made.message, actor);
}

/** Stores a completed document as a new plan's revision 1. */
export async function storeNewPlan(db: Database, document: PlanDocument, title: string, message: string | undefined, actor: string) {
  const parts = await partsOfDocument(document, NOTHING_KNOWN, title, message);
  const row = await repo.insertPlan(db, { id: newPlanId(), title, ...parts, author: actor, message: message ?? 'Created' });
  return { id: row.id, revision: 1 as const, content_hash: parts.contentHash };
}

/** The base revision of a save, or the error that says why there is none. */
async function baseRevision(db: Database, id: string, revision: number) {
  checkPlanId(id);
  await yieldToEventLoop();
  const base = await repo.findRevisionRefs(db, id, revision);
  if (base) return base;
  const plan = await repo.findPlan(db, id);
  if (!plan) throw notFound(`Plan "${id}"`);
  throw new AppError('conflict', 409, `Revision ${revision} of plan "${id}" does not exist`, undefined, { current_revision: plan.headRevision });
}

/**
 * The base's tasks by id and hash, its whole view, its hash under today's definition and
 * what it stores already. A revision hashed under version 1 (its task hashes are not what its
 * content hash is taken over, and it has no document size), or one written under an older
 * document schema (its tasks read differently today), is read whole once and hashed.
 */
async function baseRefs(db: Database, base: repo.RevisionRow) {
  const current = base.documentBytes !== null && base.hashVersion === HASH_VERSION && base.schemaVersion === CURRENT_SCHEMA_VERSION;
  if (current) {
    const { taskIds, taskHashes, pagePositions, pages } = await repo.findReferences(db, base);
    const known = { tasks: new Set(taskHashes), pages };
    return { skeleton: withPagePositions(repo.revisionDocument(base), pagePositions), taskIds, taskHashes, documentBytes: base.documentBytes!, contentHash: base.contentHash, known, unstored: [] };
  }
  const whole = await repo.findRevision(db, base.planId, base.revision);
  const document = repo.revisionDocument(whole!);
  const parts = await partsOfDocument(document, NOTHING_KNOWN);
  // Nothing was known, so every task is new, in plan order. The tasks as read today need not
  // be the rows the base references (a migrated schema), so the new revision stores the ones
  // it keeps (`unstored`): it references them.
  const taskIds = document.plan.planned_tasks.map((task) => task.task_id);
  const taskHashes = parts.newTasks.map((task) => task.hash);
  const known = { tasks: new Set<string>(), pages: [] };
  return { skeleton: skeletonOf(document), taskIds, taskHashes, documentBytes: parts.documentBytes, contentHash: parts.contentHash, known, unstored: parts.newTasks };
}

/** A revision as its body holds it, with the task positions its pages hold put back. */
function withPagePositions<T extends Pick<PlanDocument, 'view'>>(revision: T, positions: PlanDocument['view']['positions']): T {
  return { ...revision, view: { ...revision.view, positions: { ...revision.view.positions, ...positions } } };
}

/** What the base revision stores already, so a whole-plan save does not write it again. */
async function storedParts(db: Database, base: repo.RevisionRow): Promise<KnownParts> {
  const refs = await repo.findReferences(db, base);
  return { tasks: new Set(refs.taskHashes), pages: refs.pages };
}

/** Writes the new revision, or says why it was not written. */
async function writeRevision(db: Database, id: string, input: { base_revision: number; title?: string; message?: string }, parts: RevisionParts, baseHash: string, actor: string) {
  const result = await repo.saveRevision(db, {
    id,
    baseRevision: input.base_revision,
    title: input.title,
    ...parts,
    layoutOnly: parts.contentHash === baseHash,
    author: actor,
    message: input.message ?? '',
  });
  if (result.kind === 'missing') throw notFound(`Plan "${id}"`);
  if (result.kind === 'conflict') {
    throw new AppError(
      'conflict',
      409,
      `Plan "${id}" has moved on to revision ${result.currentRevision}; your edit was based on revision ${input.base_revision}. Reload, reapply and save again.`,
      undefined,
      { current_revision: result.currentRevision },
    );
  }
  return { revision: result.plan.headRevision, content_hash: parts.contentHash, layout_only: result.layoutOnly };
}

/** Saves the whole plan on top of `input.base_revision`; what `input` leaves out keeps the base's values (withBaseDefaults). */
export async function savePlan(db: Database, id: string, input: SavePlanRequest, actor: string) {
  const base = await baseRevision(db, id, input.base_revision);
  const whole = await repo.findRevision(db, id, input.base_revision);
  const previous = repo.revisionDocument(whole!);
  await yieldToEventLoop();
  const document = completeDocument(
    PlanDocumentInput.parse({
      plan: withBaseDefaults(input.plan, previous.plan),
      job: input.job ?? previous.job,
      subgraphs: input.subgraphs ?? previous.subgraphs,
      view: input.view ?? previous.view,
    }),
    freshDocumentDefaults(),
  );
  await yieldToEventLoop();
  const parts = await partsOfDocument(document, await storedParts(db, base), input.title, input.message);
  const baseHash = base.hashVersion === HASH_VERSION ? base.contentHash : serverContentHash(previous, HASH_VERSION);
  return writeRevision(db, id, input, parts, baseHash, actor);
}

/**
 * Saves what changed since the base (PATCH): the work and the new revision's storage grow
 * with the change, not with the plan. The base's unchanged tasks are never read: the new
 * revision references them by hash, and the content hash is taken over the task hashes.
 */
export async function patchPlan(db: Database, id: string, input: PatchPlanRequest, actor: string) {
  const base = await baseRevision(db, id, input.base_revision);
  const refs = await baseRefs(db, base);
  const removed = new Set(input.remove_tasks ?? []);
  const upserts = input.upsert_tasks ?? [];
  const index = new Map(refs.taskIds.map((taskId, i) => [taskId, i]));
  for (const taskId of removed) {
    if (!index.has(taskId)) throw new AppError('unprocessable', 422, `Task "${taskId}" is not in revision ${input.base_revision}, so it cannot be removed`);
  }
  const upserted = new Set<string>();
  for (const task of upserts) {
    if (upserted.has(task.task_id)) throw new AppError('bad_request', 400, `Task "${task.task_id}" is sent twice in upsert_tasks`);
    if (removed.has(task.task_id)) throw new AppError('bad_request', 400, `Task "${task.task_id}" is both removed and upserted`);
    upserted.add(task.task_id);
  }
  // The tasks this change replaces or removes: their sizes leave the plan's, and a replaced
  // task keeps the timestamps it was not sent with.
  const replacedHashes = [...removed, ...upserted].flatMap((taskId) => (index.has(taskId) ? [refs.taskHashes[index.get(taskId)!]] : []));
  const replaced = await repo.findTasks(db, id, replacedHashes);
  for (const task of refs.unstored) if (!replaced.has(task.hash)) replaced.set(task.hash, task);
  const priorOf = (taskId: string) => (index.has(taskId) ? replaced.get(refs.taskHashes[index.get(taskId)!]) : undefined);

  const taskIds = [...refs.taskIds];
  const taskHashes = [...refs.taskHashes];
  // Positions are counted by what changed (positionBytes), the rest of the skeleton whole.
  let bytes = refs.documentBytes - skeletonBytes(withoutPositions(refs.skeleton));
  for (const taskId of removed) bytes -= priorOf(taskId)?.bytes ?? 0;
  const defaults = freshDocumentDefaults();
  // The base's tasks as read whole and hashed again (baseRefs' `unstored`), but for those removed.
  const removedHashes = new Set([...removed].map((taskId) => refs.taskHashes[index.get(taskId)!]));
  const newTasks = refs.unstored.filter((task) => !removedHashes.has(task.hash));
  for (const sent of upserts) {
    const prior = priorOf(sent.task_id);
    const priorBody = prior?.body as Partial<PlannerTask> | undefined;
    const task = completeTask({ creation_time: priorBody?.creation_time, last_update_time: priorBody?.last_update_time, ...sent }, defaults);
    const stored = storedTask(task);
    newTasks.push(stored);
    bytes += stored.bytes - (prior?.bytes ?? 0);
    const at = index.get(task.task_id);
    if (at === undefined) {
      taskIds.push(task.task_id);
      taskHashes.push(stored.hash);
    } else {
      taskHashes[at] = stored.hash;
    }
  }
  if (removed.size) {
    const keep = taskIds.map((taskId) => !removed.has(taskId));
    taskIds.splice(0, taskIds.length, ...taskIds.filter((_, i) => keep[i]));
    taskHashes.splice(0, taskHashes.length, ...taskHashes.filter((_, i) => keep[i]));
  }
  if (taskIds.length > PLAN_LIMITS.maxTasks) {
    throw new AppError('bad_request', 400, `A plan may hold at most ${PLAN_LIMITS.maxTasks.toLocaleString('en')} tasks; this change leaves ${taskIds.length.toLocaleString('en')}`);
  }

  const previous = refs.skeleton;
  const moves = Object.entries(input.positions ?? {});
  checkStorableJson(JSON.stringify(moves));
  const moved = new Set(moves.map(([key]) => key));
  const positions = Object.fromEntries([...Object.entries(previous.view.positions).filter(([key]) => !moved.has(key)), ...moves.flatMap(([key, position]) => (position ? [[key, position] as const] : []))]);
  for (const [key, position] of moves) bytes += positionBytes(key, position) - positionBytes(key, Object.hasOwn(previous.view.positions, key) ? previous.view.positions[key] : null);
  // The positions are checked already (the base's when read, the sent ones by the request
  // schema): parsing 20,000 of them again would cost more than the rest of the save.
  const parsed = PlanDocument.parse({
    plan: { ...previous.plan, ...input.plan_fields, planned_tasks: [] },
    job: input.job ?? previous.job,
    subgraphs: input.subgraphs ?? previous.subgraphs,
    view: { positions: {}, collapsed: input.collapsed ?? previous.view.collapsed },
  });
  const skeleton = skeletonOf({ ...parsed, view: { ...parsed.view, positions } });
  bytes += skeletonBytes(withoutPositions(skeleton), input.title, input.message);
  const parts = revisionParts(skeleton, taskIds, taskHashes, newTasks, bytes, refs.known);
  return writeRevision(db, id, input, parts, refs.contentHash, actor);
}

/**
 * One page of the plan list (see PlanListQuery): filtered, sorted and paged by the
 * database. `author` is the plan's creator, the author of its revision 1.
 */
export async function listPlans(db: Database, query: PlanListQuery = PlanListQuery.parse({})): Promise<PlanListPage> {
  const page = await listPlanPage(db, query);
  return {
    plans: page.items.map((row) => ({
      id: row.id,
      title: row.title,
      status: row.status as PlanResponse['status'],
      revision: row.headRevision,
      content_hash: row.headContentHash,
      task_count: row.taskCount,
      author: row.author,
      created_at: toIso(row.createdAt),
      updated_at: toIso(row.updatedAt),
    })),
    next_cursor: page.next_cursor,
  };
}

/** The first page of plans, most recently updated first. */
export async function listPlanSummaries(db: Database) {
  return (await listPlans(db)).plans;
}

/** The head revision, or the given one. */
export async function getPlan(db: Database, id: string, revision?: number): Promise<PlanResponse> {
  const { plan, row } = await findRevisionOf(db, id, revision, repo.findRevision);
  return toResponse(plan, row);
}

/**
 * getPlan's answer as JSON text, for a route that sends a revision whole (the editor reads a
 * big plan this way): the tasks are copied as the text the database writes, a few pages per
 * query, instead of being aggregated into one document, parsed and written again, which held
 * the server's thread for half a second at 20,000 tasks. A revision stored at an older schema
 * version is read through its migrations, as getPlan does.
 */
export async function getPlanJson(db: Database, id: string, revision?: number): Promise<{ plan: Omit<PlanResponse, 'plan' | 'job' | 'subgraphs' | 'view'>; json: string }> {
  const { plan, row } = await findRevisionOf(db, id, revision, repo.findSentRevisionText);
  if (row.schemaVersion !== CURRENT_SCHEMA_VERSION) {
    const whole = await getPlan(db, id, row.revision);
    return { plan: whole, json: JSON.stringify(whole) };
  }
  // Written around the tasks' text, which is spliced in as it was read.
  const skeleton = (await repo.revisionSkeleton(row)) as Pick<PlanDocument, 'plan' | 'job' | 'subgraphs' | 'view'>;
  const response = responseOf(plan, row, skeleton);
  const json = stringifyAround((tasks) => ({ ...response, plan: { ...response.plan, planned_tasks: tasks } }), row.tasksText);
  const { plan: _plan, job: _job, subgraphs: _subgraphs, view: _view, ...meta } = response;
  return { plan: meta, json };
}

/** The plan and one of its revisions (the head when none is named), or the 404 naming which is missing. */
async function findRevisionOf<R>(db: Database, id: string, revision: number | undefined, find: (db: Database, id: string, revision: number) => Promise<R | undefined>) {
  checkPlanId(id);
  const plan = await repo.findPlan(db, id);
  if (!plan) throw notFound(`Plan "${id}"`);
  const row = await find(db, id, revision ?? plan.headRevision);
  if (!row) throw notFound(`Revision ${revision} of plan "${id}"`);
  return { plan, row };
}

/** A revision whose document is still JSON text, for a compute worker to read (getPlan's answer, unparsed). */
export interface RevisionText {
  planId: string;
  title: string;
  revision: number;
  contentHash: string;
  schemaVersion: number;
  /** The body as stored, and its tasks in plan order (see findRevisionText). */
  bodyText: string;
  tasksText: string;
}

/** getPlan without parsing the document on this thread: the caller hands `bodyText` to a compute worker. */
export async function getRevisionText(db: Database, id: string, revision?: number): Promise<RevisionText> {
  const { plan, row } = await findRevisionOf(db, id, revision, repo.findRevisionText);
  return { planId: id, title: plan.title, revision: row.revision, contentHash: row.contentHash, schemaVersion: row.schemaVersion, bodyText: row.bodyText, tasksText: row.tasksText };
}

/**
 * A revision without its tasks (`plan.planned_tasks` is empty) and its task ids in plan
 * order, read without the task bodies: what a page shows before the tasks arrive.
 */
export async function getPlanSkeleton(db: Database, id: string, revision?: number): Promise<{ plan: PlanResponse; taskIds: string[] }> {
  checkPlanId(id);
  const plan = await repo.findPlan(db, id);
  if (!plan) throw notFound(`Plan "${id}"`);
  const wanted = revision ?? plan.headRevision;
  const refs = await repo.findRevisionRefs(db, id, wanted);
  if (!refs) throw notFound(`Revision ${revision} of plan "${id}"`);
  const response = toResponse(plan, refs);
  const references = await repo.findReferences(db, refs);
  return { plan: withPagePositions(response, references.pagePositions), taskIds: references.taskIds };
}

export async function getRevisions(db: Database, id: string) {
  checkPlanId(id);
  const plan = await repo.findPlan(db, id);
  if (!plan) throw notFound(`Plan "${id}"`);
  const rows = await repo.listRevisions(db, id);
  return rows.map(revisionSummaryOf);
}

function revisionSummaryOf(row: Pick<repo.RevisionRow, 'revision' | 'parentRevision' | 'contentHash' | 'author' | 'message' | 'layoutOnly' | 'createdAt'>) {
  return {
    revision: row.revision,
    parent_revision: row.parentRevision,
    content_hash: row.contentHash,
    author: row.author,
    message: row.message,
    layout_only: row.layoutOnly,
    created_at: toIso(row.createdAt),
  };
}

/** One page of a plan's revisions, oldest first. */
export async function getRevisionPage(db: Database, id: string, query: PageQuery) {
  checkPlanId(id);
  const plan = await repo.findPlan(db, id);
  if (!plan) throw notFound(`Plan "${id}"`);
  const page = await listRevisionPage(db, id, query);
  return { revisions: page.items.map(revisionSummaryOf), next_cursor: page.next_cursor };
}

/** A stored revision's validation, worked out in a compute worker from the revision's text. */
export async function validateStoredPlan(db: Database, id: string): Promise<ValidationResult> {
  const revision = await getRevisionText(db, id);
  const result = await runComputeJob('validateRevision', { revision, registry: await getRegistry(db) });
  return withTitleIssue(result, revision.title);
}

/** A stored plan's validation, with the warning about its title when it hides characters. */
export function withTitleIssue(result: ValidationResult, title: string): ValidationResult {
  const issue = titleIssue(title);
  return issue ? { ...result, issues: [...result.issues, issue] } : result;
}
