/**
 * Stage 1 without a language model: a query about shipments → seed 000 planner tasks.
 *
 * The rule-based planner writes a seed 001 Planner Agent plan, and that plan goes
 * through the Planner Agent import adapter, so the tasks are exactly what importing
 * the same plan from a file gives: `step-<i>` ids, execution_type "tool", tool_id,
 * arguments = params (templates untouched), dependencies from depends_on and the
 * `${step[i]…}` templates, `parallel` kept in parameters, description "Call <tool>".
 */

import { plannerAgentFormat } from '@/lib/formats/planner-agent';
import { PlannerTask } from '@/lib/plan';
import { planQuery } from './query-planner';

export interface RuleBasedStage1Result {
  tasks: PlannerTask[];
  /** Which rules fired, for the operator (the first says no language model was used). */
  notes: string[];
}

/** Throws QueryPlanError (from planQuery) when the query cannot be planned by the rules. */
export function ruleBasedStage1(input: { query: string; today: string }): RuleBasedStage1Result {
  const { steps, notes } = planQuery(input.query, { today: input.today });
  const parsed = plannerAgentFormat.parse(JSON.stringify({ steps, metadata: { query: input.query } }));
  const tasks = (parsed.plan.planned_tasks ?? []).map((task) => PlannerTask.parse(task));
  return { tasks, notes };
}
