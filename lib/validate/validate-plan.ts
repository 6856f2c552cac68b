import { buildGraphIndex } from '@/lib/graph';
import type { SubGraph, TaskData } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { executionTypeIssues } from './execution-type-checks';
import type { ValidationResult } from './issue';
import { capIssues } from './issue-caps';
import { registryIssues } from './registry-checks';
import { structureIssues } from './structure-checks';
import { subgraphIssues } from './subgraph-checks';
import { targetIssues } from './target-checks';
import { invisibleCharacterIssues } from './text-checks';

/**
 * Every issue in a plan, errors first. Runs unchanged in the browser (live feedback while
 * editing) and on the server (the authority before review and approval). Without a
 * registry, the checks that need one (targets, parameters) are skipped. The result is
 * capped (issue-caps), so its size does not grow with what a hostile plan can hold.
 */
export function validatePlan(plan: Pick<TaskData, 'planned_tasks'> & Partial<Pick<TaskData, 'task_id'>>, registry?: Registry, subgraphs: readonly SubGraph[] = []): ValidationResult {
  const tasks = plan.planned_tasks;
  if (tasks.length === 0) {
    return {
      valid: true,
      issues: capIssues([{ severity: 'warning', code: 'empty_plan', message: 'The plan has no tasks', task_ids: [] }, ...invisibleCharacterIssues(plan)]),
    };
  }
  const index = buildGraphIndex(tasks);
  const issues = [
    ...structureIssues(index, tasks.length),
    ...executionTypeIssues(tasks),
    ...targetIssues(tasks),
    ...registryIssues(tasks, index, registry),
    ...subgraphIssues(tasks, index, subgraphs),
    ...invisibleCharacterIssues(plan),
  ];
  issues.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return { valid: !issues.some((issue) => issue.severity === 'error'), issues: capIssues(issues) };
}
