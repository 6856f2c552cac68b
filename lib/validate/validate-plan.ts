import { buildGraphIndex } from '@/lib/graph';
import type { SubGraph, TaskData } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { executionTypeIssues } from './execution-type-checks';
import type { ValidationResult } from './issue';
import { ISSUE_CAPS, capIssues, type IssueCaps } from './issue-caps';
import { registryIssueSteps } from './registry-checks';
import { structureIssues } from './structure-checks';
import { subgraphIssues } from './subgraph-checks';
import { targetIssues } from './target-checks';
import { invisibleCharacterIssues } from './text-checks';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';

type PlanInput = Pick<TaskData, 'planned_tasks'> & Partial<Pick<TaskData, 'task_id'>>;

/** The checks as steps, so the same code runs straight through or with pauses between steps. */
function* validationSteps(plan: PlanInput, registry: Registry | undefined, subgraphs: readonly SubGraph[], caps: IssueCaps = ISSUE_CAPS): Generator<void, ValidationResult> {
  const tasks = plan.planned_tasks;
  if (tasks.length === 0) {
    return {
      valid: true,
      issues: capIssues([{ severity: 'warning', code: 'empty_plan', message: 'The plan has no tasks', task_ids: [] }, ...invisibleCharacterIssues(plan)], caps),
    };
  }
  const index = buildGraphIndex(tasks);
  const issues = [...structureIssues(index, tasks.length), ...executionTypeIssues(tasks), ...targetIssues(tasks)];
  yield* registryIssueSteps(tasks, index, registry, issues, caps.maxIssues);
  issues.push(...subgraphIssues(tasks, index, subgraphs), ...invisibleCharacterIssues(plan));
  issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return { valid: !issues.some((issue) => issue.severity === 'error'), issues: capIssues(issues, caps) };
}

/**
 * Every issue in a plan, errors first. Runs unchanged in the browser (live feedback while
 * editing) and on the server (the authority before review and approval). Without a
 * registry, the checks that need one (targets, parameters) are skipped. The result is
 * capped (issue-caps), so its size does not grow with what a hostile plan can hold.
 */
export function validatePlan(plan: PlanInput, registry?: Registry, subgraphs: readonly SubGraph[] = [], caps: IssueCaps = ISSUE_CAPS): ValidationResult {
  const steps = validationSteps(plan, registry, subgraphs, caps);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

const SLICE_MS = 20;

/**
 * The same result as validatePlan, giving the event loop a turn every ~20 ms: the server
 * validates up to 20,000 tasks against tool schemas, which can take seconds, and other
 * requests must still be answered meanwhile.
 */
export async function validatePlanAsync(plan: PlanInput, registry?: Registry, subgraphs: readonly SubGraph[] = []): Promise<ValidationResult> {
  const steps = validationSteps(plan, registry, subgraphs);
  let sliceStart = Date.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (Date.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = Date.now();
    }
  }
}
