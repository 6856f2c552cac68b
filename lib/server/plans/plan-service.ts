import 'server-only';
import {
  PLAN_LIMITS,
  PlanDocumentInput,
  TaskDataInput,
  completeDocument,
  formatBytes,
  nowTimestamp,
  type DocumentDefaults,
  type ParsedTaskDataInput,
  type PlanDocument,
  type TaskData,
} from '@/lib/plan';
import type { CreatePlanRequest, PlanResponse, SavePlanRequest } from '@/lib/api/schemas';
import { PlanListQuery, type PageQuery, type PlanListPage } from '@/lib/api/list-schemas';
import { titleIssue, validatePlanAsync, type ValidationResult } from '@/lib/validate';
import type { Database } from '../db/client';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { getRegistry } from '../registry/registry-service';
import { AppError, fromZodError, notFound } from '../errors';
import { PLAN_ID_PATTERN, newPlanId } from './plan-id';
import { documentHashes } from './document-hashes';
import * as repo from './plan-repository';
import { listPlanPage, listRevisionPage } from './plan-list-queries';

// The one place plans are created, read and saved: route handlers and server actions
// both call these, so the REST API and the UI cannot drift apart.

/**
 * Refuses what the database would refuse mid-transaction: PostgreSQL text cannot hold NUL
 * and jsonb rejects unpaired surrogates. JSON.stringify writes both as \u escapes (a well-
 * formed pair is written as is), so one scan of the serialised document finds them.
 */
function checkStorable(document: PlanDocument, ...texts: Array<string | undefined>): void {
  const json = JSON.stringify([document, texts]);
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > PLAN_LIMITS.maxPlanBytes) {
    throw new AppError(
      'payload_too_large',
      413,
      `The plan is ${formatBytes(bytes)}; the limit is ${formatBytes(PLAN_LIMITS.maxPlanBytes)}`,
    );
  }
  if (/\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(json)) {
    throw new AppError('bad_request', 400, 'The plan contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored');
  }
}

export function checkPlanId(id: string): void {
  if (!PLAN_ID_PATTERN.test(id)) throw notFound(`Plan "${id.slice(0, 64)}"`);
}

const TASK_DATA_FIELDS = (Object.keys(TaskDataInput.shape) as Array<keyof TaskData>).filter((field) => field !== 'planned_tasks');

/**
 * The ids and the time this create or save fills in where the client sent none: one
 * timestamp for the whole save, in Python's `utcnow().isoformat()` form (lib/plan/timestamps).
 */
function documentDefaults(): DocumentDefaults {
  return { now: nowTimestamp(), newId: () => crypto.randomUUID() };
}

/**
 * Fills what a client left out of a saved plan from the base revision, instead of from
 * defaults: otherwise a random task_id and "now" timestamps would change the content hash
 * of a plan whose content did not change, and `plan: {}` would delete every task. Omitted
 * `planned_tasks` keep the base's tasks; tasks sent without timestamps keep theirs.
 */
function withBaseDefaults(raw: unknown, base: PlanDocument['plan']): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const merged: Record<string, unknown> = {
    ...Object.fromEntries(TASK_DATA_FIELDS.map((f) => [f, base[f]])),
    planned_tasks: base.planned_tasks,
    ...raw,
  };
  const baseTasks = new Map(base.planned_tasks.map((t) => [t.task_id, t]));
  const tasks = (raw as { planned_tasks?: unknown }).planned_tasks;
  if (Array.isArray(tasks)) {
    merged.planned_tasks = tasks.map((task: unknown) => {
      const id = task && typeof task === 'object' ? (task as { task_id?: unknown }).task_id : undefined;
      const prior = typeof id === 'string' ? baseTasks.get(id) : undefined;
      return prior ? { creation_time: prior.creation_time, last_update_time: prior.last_update_time, ...(task as object) } : task;
    });
  }
  return merged;
}

function toIso(date: Date): string {
  return date.toISOString();
}

function toResponse(plan: repo.PlanRow, revision: repo.RevisionRow): PlanResponse {
  const body = repo.revisionDocument(revision);
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

/**
 * The hashes a revision is stored with. A 20,000-task plan takes about 0.4 s to hash on
 * this hardware, so the server answers other requests before and after.
 */
async function hashed(document: PlanDocument): Promise<{ contentHash: string; bodyHash: string }> {
  await yieldToEventLoop();
  const hashes = documentHashes(document);
  await yieldToEventLoop();
  return hashes;
}

/** `actor` is who the revision is by: four-eyes and the audit trail depend on it. */
export async function createPlan(db: Database, input: CreatePlanRequest, actor: string) {
  // The request was just parsed (up to 10 MB): let other requests in before parsing again.
  await yieldToEventLoop();
  const document = completeDocument(
    PlanDocumentInput.parse({ plan: input.plan, job: input.job, subgraphs: input.subgraphs, view: input.view }),
    documentDefaults(),
  );
  await yieldToEventLoop();
  checkStorable(document, input.title, input.message);
  const hashes = await hashed(document);
  const hash = hashes.contentHash;
  const row = await repo.insertPlan(db, {
    id: newPlanId(),
    title: input.title,
    document,
    ...hashes,
    author: actor,
    message: input.message ?? 'Created',
  });
  return { id: row.id, revision: 1 as const, content_hash: hash };
}

/** `rawPlan`, when given, is the plan as the client sent it, so omitted fields keep their stored values. */
export async function savePlan(db: Database, id: string, input: SavePlanRequest, actor: string, rawPlan?: unknown) {
  checkPlanId(id);
  await yieldToEventLoop();
  const base = await repo.findRevision(db, id, input.base_revision);
  if (!base) {
    const plan = await repo.findPlan(db, id);
    if (!plan) throw notFound(`Plan "${id}"`);
    throw new AppError('conflict', 409, `Revision ${input.base_revision} of plan "${id}" does not exist`, undefined, {
      current_revision: plan.headRevision,
    });
  }
  const previous = repo.revisionDocument(base);
  await yieldToEventLoop();
  let plan: ParsedTaskDataInput = input.plan;
  if (rawPlan !== undefined) {
    const merged = TaskDataInput.safeParse(withBaseDefaults(rawPlan, previous.plan));
    if (!merged.success) throw fromZodError(merged.error, 'request body', ['plan']);
    plan = merged.data;
    await yieldToEventLoop();
  }
  const document = completeDocument(
    PlanDocumentInput.parse({
      plan,
      job: input.job ?? previous.job,
      subgraphs: input.subgraphs ?? previous.subgraphs,
      view: input.view ?? previous.view,
    }),
    documentDefaults(),
  );
  await yieldToEventLoop();
  checkStorable(document, input.title, input.message);
  const hashes = await hashed(document);
  const hash = hashes.contentHash;
  const result = await repo.saveRevision(db, {
    id,
    baseRevision: input.base_revision,
    title: input.title,
    document,
    ...hashes,
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
  return { revision: result.plan.headRevision, content_hash: hash, layout_only: result.layoutOnly };
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
  checkPlanId(id);
  const plan = await repo.findPlan(db, id);
  if (!plan) throw notFound(`Plan "${id}"`);
  const row = await repo.findRevision(db, id, revision ?? plan.headRevision);
  if (!row) throw notFound(`Revision ${revision} of plan "${id}"`);
  return toResponse(plan, row);
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

export async function validateStoredPlan(db: Database, id: string): Promise<ValidationResult> {
  const plan = await getPlan(db, id);
  return withTitleIssue(await validatePlanAsync(plan.plan, await getRegistry(db), plan.subgraphs), plan.title);
}

/** A stored plan's validation, with the warning about its title when it hides characters. */
export function withTitleIssue(result: ValidationResult, title: string): ValidationResult {
  const issue = titleIssue(title);
  return issue ? { ...result, issues: [...result.issues, issue] } : result;
}
