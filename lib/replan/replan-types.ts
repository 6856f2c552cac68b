import { z } from 'zod';
import { PlannerTask, type PlanDocument } from '@/lib/plan';
import { BACKEND_IDS, PlannedBy } from '@/lib/planning/planning-types';
import type { Registry } from '@/lib/registry';

// Seed 000's replanning: tasks marked `mark_replan` are replaced, each by one or more new
// tasks, and nothing else in the plan changes but the dependencies that named them. A
// replanner proposes; the operator accepts per task; applying makes a new revision.

/** Seed 000's `custom_append_text`: what the operator wants done differently. */
const Instructions = z.string().trim().max(4000, 'instructions must be at most 4,000 characters');

export const ReplanRequest = z.strictObject({
  /** The tasks to replan; omitted, the tasks the revision has marked `mark_replan`. */
  task_ids: z.array(z.string().min(1, 'A task id must not be empty')).min(1, 'Name at least one task to replan').max(200, 'Replan at most 200 tasks at once').optional(),
  instructions: Instructions.default(''),
  /** The revision the operator looked at; a newer head is a conflict. */
  base_revision: z.number().int().min(1).optional(),
  backend: z.enum(BACKEND_IDS).optional(),
});
export type ReplanRequest = z.infer<typeof ReplanRequest>;
export type ReplanRequestInput = z.input<typeof ReplanRequest>;

/** The new tasks for one replaced task: a single task, a chain or a small DAG. */
export const Replacement = z.object({
  replaces: z.string().min(1),
  tasks: z.array(PlannerTask).min(1, 'A replacement needs at least one task').max(20, 'A replacement may have at most 20 tasks'),
});
export type Replacement = z.infer<typeof Replacement>;

export const ReplanPlannedBy = PlannedBy.extend({ label: z.string() });
export type ReplanPlannedBy = z.infer<typeof ReplanPlannedBy>;

/** What a replanner proposed for one revision, as stored; applying it is a separate step. */
export const ReplanProposal = z.object({
  proposal_id: z.string(),
  plan_id: z.string(),
  revision: z.number().int(),
  content_hash: z.string(),
  task_ids: z.array(z.string()),
  instructions: z.string(),
  replacements: z.array(Replacement),
  planned_by: ReplanPlannedBy,
  /** What the replanner did for each task, in words for the operator. */
  notes: z.array(z.string()),
  created_by: z.string(),
  created_at: z.string(),
});
export type ReplanProposal = z.infer<typeof ReplanProposal>;

export const ApplyReplanRequest = z.strictObject({
  /** Ids of replaced tasks whose replacement the operator accepts; the rest stay as they are. */
  accepted_task_ids: z
    .array(z.string().min(1, 'A task id must not be empty'))
    .min(1, 'Accept at least one replacement; to reject them all, leave the proposal unapplied')
    .max(200),
});
export type ApplyReplanRequest = z.infer<typeof ApplyReplanRequest>;

export interface ReplanInput {
  /** The revision to replan, with `mark_replan` set on exactly the tasks in `taskIds`. */
  doc: PlanDocument;
  taskIds: readonly string[];
  instructions: string;
  registry: Registry;
  /** The date temporal phrases ("last week") resolve against. */
  today: string;
}

export interface ReplanResult {
  replacements: Replacement[];
  notes: string[];
}

/** One replanning backend; `backend`, `model` and `label` say honestly what it is. */
export interface Replanner extends ReplanPlannedBy {
  replan(input: ReplanInput): Promise<ReplanResult>;
}
