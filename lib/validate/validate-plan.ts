import { buildGraphIndex } from '@/lib/graph';
import type { SubGraph, TaskData } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { executionTypeIssues } from './execution-type-checks';
import type { ValidationResult } from './issue';
import { registryIssues } from './registry-checks';
import { structureIssues } from './structure-checks';
import { subgraphIssues } from './subgraph-checks';

/**
 * Every issue in a plan, errors first. Runs unchanged in the browser (live feedback while
 * editing) and on the server (the authority before review and approval). Without a
 * registry, the checks that need one (targets, parameters) are skipped.
 */
export function validatePlan(plan: Pick<TaskData, 'planned_tasks'>, registry?: Registry, subgraphs: readonly SubGraph[] = []): ValidationResult {
  const tasks = plan.planned_tasks;
  if (tasks.length === 0) {
    return {
      valid: true,
      issues: [{ severity: 'warning', code: 'empty_plan', message: 'The plan has no tasks', task_ids: [] }],
    };
  }
  const index = buildGraphIndex(tasks);
  const issues = [
    ...structureIssues(index, tasks.length),
    ...executionTypeIssues(tasks),
    ...registryIssues(tasks, index, registry),
    ...subgraphIssues(tasks, index, subgraphs),
  ];
  issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return { valid: !issues.some((issue) => issue.severity === 'error'), issues };
}
