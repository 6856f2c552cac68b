import type { z } from 'zod';
import { CreatePlanRequest, ValidateRequest } from '@/lib/api/schemas';
import { FormatError, importFailure, type FormatId, type SerializedPlan } from '@/lib/formats/format';
import { formatById } from '@/lib/formats/registry';
import { importPlan } from '@/lib/formats/import-plan';
import { parseJsonBody } from '@/lib/api/json-body';
import { diffPlans, newPlanDocument, type PlanDiff, type PlanDocument, type SubGraph } from '@/lib/plan';
import { snapshotResources, type ResourceSnapshot } from '@/lib/approval/approved-resources';
import { documentSchema, readRevisionDocument, type StoredRevisionRef } from '@/lib/plan/migrations';
import type { Registry } from '@/lib/registry';
import { DryRunError, DryRunOptionsError, dryRun, type DryRunOptions } from '@/lib/simulate/dry-run';
import { dryRunPages, type DryRunPages } from '@/lib/simulate/dry-run-pages';
import type { ConvertorOutcome } from '@/lib/simulate/sandbox/run-convertor';
import { validatePlan, type ValidationResult } from '@/lib/validate';
import { buildGraphIndex } from '@/lib/graph';
import { groupingRefusal } from '@/lib/optimize/groupable';
import { optimizeSubgraphs, type OptimizeResult } from '@/lib/optimize/rule-based-optimizer';
import { estimateTasks } from '@/lib/simulate/task-estimates';
import type { PlannerTask } from '@/lib/plan';
import type { LayoutTask, XYPosition } from '@/lib/layout/elk-graph';
import { layOutTasks, withFirstLayout } from '@/lib/layout/first-layout';
import type { ELK } from 'elkjs/lib/elk-api';
import type { Refusal } from './protocol';

// The jobs a compute worker runs (compute.worker.ts): the CPU-heavy part of a request,
// from the text the server read to the answer it stores or sends. Pure, so each is also
// a plain function call in a unit test, and the answer is the one the same code gave on
// the server's thread before (a dry run with the same seed is bit for bit the same).

let elk: Promise<ELK> | undefined;
/** ELK, loaded on this worker's first layout: 1.6 MB of script that most jobs never need. */
const loadElk = () => (elk ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK()));
const layOutHere = async (tasks: LayoutTask[]) => layOutTasks(await loadElk(), tasks);

/** A job's refusal of its input; the server answers it as the 4xx it names. */
export class JobRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'JobRefusal';
  }
}

/** How a job asks the server for something only the server's thread may do. */
export type CallServer = (kind: string, input: unknown) => Promise<unknown>;

/** A stored revision as the server read it: its document still JSON text (lib/server/plans/plan-repository.ts findRevisionText). */
export interface RevisionTextInput extends StoredRevisionRef {
  /** The body as stored. */
  bodyText: string;
  /** The tasks in plan order, which the stored body refers to by its pages instead of holding. */
  tasksText: string;
}

function readRevision(input: RevisionTextInput): PlanDocument {
  const body = JSON.parse(input.bodyText) as { plan?: { planned_tasks?: unknown } };
  if (body?.plan && typeof body.plan === 'object') body.plan.planned_tasks = JSON.parse(input.tasksText);
  const read = readRevisionDocument({ ...input, body }, documentSchema);
  if (!read.success) throw new JobRefusal({ code: 'integrity', message: read.message, extra: read.extra });
  return read.data;
}

/** A request body's text parsed with the route's schema, refused as the route layer would refuse it. */
function parseRequest<S extends z.ZodType>(schema: S, text: string, what = 'request body'): z.infer<S> {
  const json = parseJsonBody(text, what);
  if (!json.ok) throw new JobRefusal({ code: json.problem.code, message: json.problem.message });
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return parsed.data;
  throw new JobRefusal({ code: 'bad_request', message: `Invalid ${what}`, what, issues: parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message })) });
}

export interface DryRunJob {
  revision: RevisionTextInput;
  registry: Registry;
  options: DryRunOptions;
}

export interface ValidateRevisionJob {
  revision: RevisionTextInput;
  registry: Registry;
}

export interface ValidateRequestJob {
  bodyText: string;
  registry: Registry;
}

export interface OptimizeRuleJob {
  /** The tasks to group: the editor's (unsaved edits included), or those of `revision`. */
  tasks?: PlannerTask[];
  revision?: RevisionTextInput;
  registry: Registry;
  workers: number;
}

export interface ReviewRevisionJob {
  head: RevisionTextInput;
  /** The revision the review compares the head with; none when that is the head itself. */
  base?: RevisionTextInput;
  registry: Registry;
  /** How many of the head's tasks come back whole (the task table's rows). */
  rows: number;
}

/** What the review page shows of a revision: sized by what it draws, not by the plan. */
export interface ReviewFacts {
  /** The head's validation, as validatePlan gives it (its issues capped, lib/validate/issue-caps.ts). */
  validation: ValidationResult;
  /** The registry resources the head routes to, as the registry now defines them. */
  resources: ResourceSnapshot;
  taskCount: number;
  /** The head's first `rows` tasks. */
  tasks: PlannerTask[];
  /**
   * Every task's id and description, in plan order, what the comment forms name tasks by; null
   * when `rows` leaves tasks out: a big plan's page has its forms read the names from the
   * revision its canvas loads, since 20,000 names written into the page held the server's thread.
   */
  names: Array<Pick<PlannerTask, 'task_id' | 'description'>> | null;
  subgraphs: SubGraph[];
  /** The change from the base; null when the base is the head. */
  diff: PlanDiff | null;
}

export const COMPUTE_JOBS = {
  /**
   * The rule-based optimiser (strategy 'rule'): the graph, the estimates and its scheduler
   * runs are seconds of work on a 20,000-task plan.
   */
  async optimizeRule(input: OptimizeRuleJob): Promise<OptimizeResult> {
    const tasks = input.tasks ?? (input.revision ? readRevision(input.revision).plan.planned_tasks : []);
    const index = buildGraphIndex(tasks);
    const refusal = groupingRefusal(index);
    if (refusal) throw new JobRefusal({ code: 'unprocessable', message: refusal });
    const { durations } = estimateTasks(tasks, input.registry);
    return optimizeSubgraphs(tasks, index, durations, input.workers);
  },


  /**
   * Schedule, data flow and Monte Carlo of a stored revision; convertors run in the server's
   * sandbox (a call). The tasks come back as pages of JSON text (dry-run-pages.ts): writing
   * 20,000 of them as JSON, and the server's thread receiving them as objects, took that
   * thread hundreds of ms; strings cross to it as one copy each.
   */
  async dryRun(input: DryRunJob, call: CallServer): Promise<DryRunPages> {
    const document = readRevision(input.revision);
    const runConvertor = (code: string, value: unknown) => call('convertor', { code, input: value }) as Promise<ConvertorOutcome>;
    try {
      return dryRunPages(await dryRun(document.plan, input.registry, input.options, runConvertor));
    } catch (error) {
      if (error instanceof DryRunOptionsError) throw new JobRefusal({ code: 'bad_request', message: error.message });
      if (error instanceof DryRunError) throw new JobRefusal({ code: 'unprocessable', message: error.message });
      throw error;
    }
  },

  /** Every issue of a stored revision, its subgraphs included (the title's issue is the server's). */
  async validateRevision(input: ValidateRevisionJob): Promise<ValidationResult> {
    const document = readRevision(input.revision);
    return validatePlan(document.plan, input.registry, document.subgraphs);
  },

  /**
   * The review page's reading of a revision: its validation and resources (the gate's inputs),
   * its diff from the base, and the rows and names the page draws. Parsing, validating and
   * diffing 20,000 tasks held the server's thread for over a second.
   */
  async reviewRevision(input: ReviewRevisionJob): Promise<ReviewFacts> {
    const head = readRevision(input.head);
    const tasks = head.plan.planned_tasks;
    return {
      validation: validatePlan(head.plan, input.registry, head.subgraphs),
      resources: snapshotResources(tasks, input.registry),
      taskCount: tasks.length,
      tasks: tasks.slice(0, input.rows),
      names: input.rows >= tasks.length ? tasks.map(({ task_id, description }) => ({ task_id, description })) : null,
      subgraphs: head.subgraphs,
      diff: input.base ? diffPlans(readRevision(input.base), head) : null,
    };
  },

  /** POST /api/validate from its body's text: parsing 20,000 tasks is work too. */
  async validateRequest(input: ValidateRequestJob): Promise<ValidationResult> {
    const body = parseRequest(ValidateRequest, input.bodyText);
    return validatePlan(body.plan, input.registry);
  },

  /**
   * POST /api/plans from its body's text: the request parsed and the new document completed
   * (ids, times), laid out if it came without positions (lib/layout/first-layout.ts).
   */
  async createRequest(input: { bodyText: string }): Promise<{ title: string; message: string | undefined; document: PlanDocument }> {
    const body = parseRequest(CreatePlanRequest, input.bodyText);
    return { title: body.title, message: body.message, document: await withFirstLayout(layOutHere, newPlanDocument(body)) };
  },

  /** A stored revision written in an export format: serialising 20,000 tasks is work too. */
  async exportRevision(input: { revision: RevisionTextInput; formatId: FormatId }): Promise<SerializedPlan> {
    const document = readRevision(input.revision);
    const format = formatById(input.formatId);
    try {
      return format.serialize({ plan: document.plan, job: document.job, subgraphs: document.subgraphs });
    } catch (error) {
      // A draft may hold what a format cannot express at all (a cycle has no step order).
      if (error instanceof FormatError) {
        const where = error.location ? `${error.location}: ` : '';
        throw new JobRefusal({ code: 'unprocessable', message: `Revision ${input.revision.revision} cannot be exported as ${format.id}: ${where}${error.detail}` });
      }
      throw error;
    }
  },

  /** The first layout of a new plan made on the server's thread (plan-service.ts createPlan). */
  async layOutTasks(input: { tasks: LayoutTask[] }): Promise<Record<string, XYPosition>> {
    return layOutHere(input.tasks);
  },

  /** A plan file in any supported format, read and completed as a new plan's document. */
  async importPlan(input: { content: string; format?: FormatId }): Promise<{ formatId: FormatId; formatLabel: string; title: string | undefined; document: PlanDocument }> {
    let imported;
    try {
      imported = importPlan(input.content, input.format);
    } catch (error) {
      if (error instanceof FormatError) throw new JobRefusal({ code: 'bad_request', ...importFailure(error) });
      throw error;
    }
    const { document, format, title } = imported;
    const completed = newPlanDocument({ plan: document.plan, job: document.job, view: document.view });
    return { formatId: format.id, formatLabel: format.label, title, document: await withFirstLayout(layOutHere, completed) };
  },
} satisfies Record<string, (input: never, call: CallServer) => Promise<unknown>>;

export type ComputeJobs = typeof COMPUTE_JOBS;
export type ComputeJobKind = keyof ComputeJobs;
