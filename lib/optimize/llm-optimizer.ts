/**
 * LLM grouping of a plan's tasks into subgraphs (seed 000's OptimizationPlanner): the
 * model proposes groups from what the tasks are for, and the proposal is checked against
 * the grouping invariants (lib/validate/subgraph-checks) once, as it stands. An answer
 * that is not JSON of the right shape is asked for again (generateStructured); a
 * well-formed grouping that breaks an invariant is not: it is rejected with the reason,
 * so the caller can say why and offer the rule-based grouping instead.
 */

import { z } from 'zod';
import type { GraphIndex } from '@/lib/graph';
import type { LlmConfig } from '@/lib/llm/llm-config';
import { generateStructured } from '@/lib/llm/structured-output';
import { PLAN_LIMITS, type SubGraph } from '@/lib/plan';
import { subgraphIssues } from '@/lib/validate/subgraph-checks';
import { groupingReport, ms, plural, taskLevelDryRun, type OptimizeReport } from './grouping-report';
import { groupingPrompt, type PromptTask } from './llm-optimizer-prompt';
import { normaliseSubgraphs } from './subgraph-edits';
import { scheduleSubgraphs } from './subgraph-schedule';

/**
 * What the model is asked for. depends_on is not asked for: it follows from the tasks'
 * dependencies, so any the model sends is dropped here and derived again.
 */
export const GroupingAnswer = z.object({
  subgraphs: z
    .array(
      z.object({
        subgraph_id: z.string().min(1).max(200),
        task_ids: z.array(z.string().max(1_000)).max(PLAN_LIMITS.maxTasks),
        reason: z.string().max(2_000).nullish(),
      }),
    )
    .max(PLAN_LIMITS.maxTasks),
});
export type GroupingAnswer = z.infer<typeof GroupingAnswer>;

export interface GroupRationale {
  subgraph_id: string;
  reason: string;
}

export type GroupingVerdict =
  | { accepted: true; subgraphs: SubGraph[]; rationale: GroupRationale[] }
  /** `proposed` is the model's grouping normalised (tasks in dependency order, depends_on derived), invariants still broken. */
  | { accepted: false; reason: string; proposed: SubGraph[] };

export type LlmOptimizeResult =
  | { accepted: true; subgraphs: SubGraph[]; report: OptimizeReport }
  | { accepted: false; reason: string; proposed: SubGraph[] };

/** Problems spelled out in a rejection; the rest are counted. */
const LISTED_PROBLEMS = 5;
/** Model reasons quoted in a report, and how much of each. */
const LISTED_RATIONALE = 8;
const RATIONALE_CHARS = 300;

/**
 * Accepts the grouping when it satisfies every invariant once normalised, else rejects it
 * with every error found. `index` is buildGraphIndex of `tasks`.
 */
export function checkGrouping(tasks: readonly PromptTask[], index: GraphIndex, answer: GroupingAnswer): GroupingVerdict {
  const proposed = normaliseSubgraphs(tasks, answer.subgraphs, index);
  // No subgraphs at all reads as "not grouped" to the checks, which is no answer here.
  if (proposed.length === 0 && index.n > 0) {
    return { accepted: false, reason: `The model proposed no subgraphs with tasks; each of the ${plural(index.n, 'task')} must be in exactly one`, proposed };
  }
  const errors = subgraphIssues(tasks, index, proposed).filter((issue) => issue.severity === 'error');
  if (errors.length > 0) {
    const listed = errors.slice(0, LISTED_PROBLEMS).map((issue) => issue.message);
    if (errors.length > LISTED_PROBLEMS) listed.push(`and ${plural(errors.length - LISTED_PROBLEMS, 'more problem')}`);
    return { accepted: false, reason: listed.join('. '), proposed };
  }
  const kept = new Set(proposed.map((sg) => sg.subgraph_id));
  const rationale = answer.subgraphs.flatMap(({ subgraph_id, reason }) =>
    kept.has(subgraph_id) && reason?.trim() ? [{ subgraph_id, reason: reason.trim() }] : [],
  );
  return { accepted: true, subgraphs: proposed, rationale };
}

/**
 * The report of an accepted model grouping: the same dry-run figures as the rule-based
 * optimiser's, and plainly so when the grouping is slower than task by task, which
 * nothing here prevents.
 */
export function modelGroupingReport(
  model: string,
  index: GraphIndex,
  durations: Float64Array,
  verdict: Extract<GroupingVerdict, { accepted: true }>,
  workers: number,
): OptimizeReport {
  const { subgraphs, rationale } = verdict;
  const taskRun = taskLevelDryRun(index, durations, workers);
  const run = scheduleSubgraphs(index, durations, subgraphs, workers).result;
  const reasons = [
    `Grouped by the model (${model}) from what the tasks are for, then checked: every task is in exactly one subgraph, depends_on follows from the tasks' dependencies, and no subgraphs wait on each other`,
  ];
  for (const { subgraph_id, reason } of rationale.slice(0, LISTED_RATIONALE)) {
    reasons.push(`The model's reason for "${subgraph_id}": ${reason.length > RATIONALE_CHARS ? `${reason.slice(0, RATIONALE_CHARS)}…` : reason}`);
  }
  if (rationale.length > LISTED_RATIONALE) reasons.push(`The model gave reasons for ${plural(rationale.length - LISTED_RATIONALE, 'more subgraph')}`);
  if (run.makespanMs > taskRun.makespanMs) {
    reasons.push(`This grouping is slower than dispatching task by task: ${ms(run.makespanMs)} against ${ms(taskRun.makespanMs)} in the dry run at P = ${workers}`);
  }
  if (run.criticalPathMs > taskRun.criticalPathMs) {
    reasons.push(
      `It lengthens the critical path from ${ms(taskRun.criticalPathMs)} to ${ms(run.criticalPathMs)}: a subgraph runs its tasks one after another, so tasks that could run side by side wait for each other`,
    );
  }
  return groupingReport(subgraphs, index.n, workers, taskRun, run.makespanMs, reasons);
}

export interface LlmOptimizeOptions {
  config: LlmConfig;
  tasks: readonly PromptTask[];
  /** buildGraphIndex of `tasks`; the plan must be acyclic. */
  index: GraphIndex;
  /** Dry-run duration (ms) of each task, by node index. */
  durations: Float64Array;
  workers: number;
}

/**
 * Asks the model for a grouping and checks it. Throws what the LLM call throws
 * (LlmRequestError, LlmAnswerError) when no well-formed answer came back.
 */
export async function optimizeWithLlm({ config, tasks, index, durations, workers }: LlmOptimizeOptions): Promise<LlmOptimizeResult> {
  const { system, user } = groupingPrompt(tasks, workers);
  const { value } = await generateStructured({ config, system, user, schema: GroupingAnswer, schemaName: 'subgraph_grouping' });
  const verdict = checkGrouping(tasks, index, value);
  if (!verdict.accepted) return verdict;
  return { accepted: true, subgraphs: verdict.subgraphs, report: modelGroupingReport(config.model, index, durations, verdict, workers) };
}
