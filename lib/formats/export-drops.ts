import canonicalize from 'canonicalize';
import { Job as JobInput, PlannerTaskInput, TaskDataInput, type PlanDocument, type PlannerTask } from '@/lib/plan';

// What an export loses, worked out in one place from what each format says it carries,
// so a field no adapter thought about is reported rather than lost silently.

type Plan = PlanDocument['plan'];
type Job = PlanDocument['job'];

/**
 * Fields every import mints afresh (the plan's and tasks' own timestamps, the plan's
 * id): an export never promises them, so they are not reported and the round-trip
 * contract does not compare them.
 */
export const MINTED_TASK_FIELDS = ['creation_time', 'last_update_time'] as const;
export const MINTED_PLAN_FIELDS = ['task_id', 'creation_time', 'update_time'] as const;

export type TaskField = Exclude<keyof PlannerTask, (typeof MINTED_TASK_FIELDS)[number]>;
export type PlanField = Exclude<keyof Plan, 'planned_tasks' | (typeof MINTED_PLAN_FIELDS)[number]>;
export type JobField = keyof Job;

/**
 * Reading a file back may fill in what a plan left empty (a description, an execution
 * type, original_job_data); that loses nothing, so the declarations below do not report it.
 *
 * How a format carries one field: `true` when any value comes back as it was, or a
 * check naming what of this value it cannot carry (`[]` when it carries all of it).
 * A field a format does not declare is dropped whenever it differs from seed 000's default.
 */
export type Carriage<T> = true | ((owner: T) => string[]);

export interface CarriedFields {
  task: Partial<Record<TaskField, Carriage<PlannerTask>>>;
  plan: Partial<Record<PlanField, Carriage<Plan>>>;
  job: Partial<Record<JobField, Carriage<Job>>>;
}

/** One field an export loses; `task_id` names the task for task fields. */
export interface FieldLoss {
  at: 'task' | 'plan' | 'job' | 'subgraphs';
  task_id?: string;
  field: string;
}

/** What serialize hands back about losses: readable lines and the fields they concern. */
export interface ExportLosses {
  dropped: string[];
  lost: FieldLoss[];
}

const TASK_DEFAULTS = PlannerTaskInput.parse({}) as Record<string, unknown>;
const PLAN_DEFAULTS = TaskDataInput.parse({}) as Record<string, unknown>;
const JOB_DEFAULTS = JobInput.parse({}) as Record<string, unknown>;

export const sameJson = (a: unknown, b: unknown): boolean => canonicalize(a ?? null) === canonicalize(b ?? null);

/** What a default-valued field looks like when said: `status "running"` rather than `status`. */
function named(field: string, value: unknown): string {
  return typeof value === 'string' && (field === 'status' || field === 'execution_type') ? `${field} "${value}"` : field;
}

function losses<T extends object>(owner: T, defaults: Record<string, unknown>, carried: Partial<Record<string, Carriage<T>>>, skip: readonly string[]): Array<{ field: string; text: string }> {
  const out: Array<{ field: string; text: string }> = [];
  for (const [field, value] of Object.entries(owner)) {
    if (skip.includes(field)) continue;
    const carriage = carried[field];
    if (carriage === true) continue;
    if (carriage) {
      for (const text of carriage(owner)) out.push({ field, text });
    } else if (!sameJson(value, defaults[field])) {
      out.push({ field, text: named(field, value) });
    }
  }
  return out;
}

/** Collects an export's losses: the ones a format's declaration implies and the ones only its adapter knows. */
export class ExportReport implements ExportLosses {
  readonly dropped: string[] = [];
  readonly lost: FieldLoss[] = [];

  /** A loss of a task's field, said in the adapter's words. */
  task(taskId: string, field: TaskField, text: string): void {
    this.lost.push({ at: 'task', task_id: taskId, field });
    this.dropped.push(`task ${taskId}: ${text}`);
  }

  plan(field: PlanField, text: string): void {
    this.lost.push({ at: 'plan', field });
    this.dropped.push(`plan: ${text}`);
  }

  job(field: JobField, text: string): void {
    this.lost.push({ at: 'job', field });
    this.dropped.push(`job: ${text}`);
  }

  /** Something the reader should know that loses no field (a template written unchanged). */
  note(text: string): void {
    this.dropped.push(text);
  }

  /** Every field of one task the format's declaration says it cannot carry, on one line. */
  uncarriedTask(task: PlannerTask, carried: CarriedFields): void {
    const found = losses(task, TASK_DEFAULTS, carried.task, MINTED_TASK_FIELDS);
    for (const { field } of found) this.lost.push({ at: 'task', task_id: task.task_id, field });
    if (found.length > 0) this.dropped.push(`task ${task.task_id}: ${found.map((f) => f.text).join(', ')}`);
  }

  /** The plan's, job's and grouping's fields the declaration says the format cannot carry. */
  uncarriedDocument(doc: ExportedDocument, carried: CarriedFields): void {
    const plan = losses(doc.plan, PLAN_DEFAULTS, carried.plan, ['planned_tasks', ...MINTED_PLAN_FIELDS]);
    for (const { field } of plan) this.lost.push({ at: 'plan', field });
    if (plan.length > 0) this.dropped.push(`plan: ${plan.map((f) => f.text).join(', ')}`);
    const job = losses(doc.job, JOB_DEFAULTS, carried.job, []);
    for (const { field } of job) this.lost.push({ at: 'job', field });
    if (job.length > 0) this.dropped.push(`job: ${job.map((f) => f.text).join(', ')}`);
    if ((doc.subgraphs ?? []).length > 0) {
      this.lost.push({ at: 'subgraphs', field: 'subgraphs' });
      this.dropped.push(`subgraphs: ${doc.subgraphs!.length} group(s) (no format but Plangate's own keeps them)`);
    }
  }

  /** The serialized text with this report, as serialize returns it. */
  result(text: string): ExportLosses & { text: string } {
    return { text, dropped: this.dropped, lost: this.lost };
  }

  /** Every field of every task, then the document's, that the declaration leaves out. */
  uncarried(doc: ExportedDocument, carried: CarriedFields): void {
    for (const task of doc.plan.planned_tasks) this.uncarriedTask(task, carried);
    this.uncarriedDocument(doc, carried);
  }
}

/** What an adapter serializes: the plan and job, and the grouping when the caller has one. */
export type ExportedDocument = Pick<PlanDocument, 'plan' | 'job'> & Partial<Pick<PlanDocument, 'subgraphs'>>;

/** The declared losses of a whole document, for adapters with nothing of their own to add. */
export function droppedFields(doc: ExportedDocument, carried: CarriedFields): ExportLosses {
  const report = new ExportReport();
  report.uncarried(doc, carried);
  return report;
}
