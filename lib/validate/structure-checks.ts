import { findCycle, redundantEdges, topologicalOrder, type GraphIndex } from '@/lib/graph';
import type { ValidationIssue } from './issue';

// Checks on the dependency graph alone: ids, edges, cycles and redundancy.

export function structureIssues(index: GraphIndex, taskCount: number): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const { ids } = index;

  for (const id of index.duplicates) {
    issues.push({
      severity: 'error',
      code: 'duplicate_task_id',
      message: `Task id "${id}" is used by more than one task; ids must be unique`,
      task_ids: [id],
    });
  }
  for (const { task, dependency } of index.missing) {
    issues.push({
      severity: 'error',
      code: 'missing_dependency',
      message: `Task "${ids[task]}" depends on "${dependency}", which is not in the plan`,
      task_ids: [ids[task]],
    });
  }
  for (const task of index.selfLoops) {
    issues.push({
      severity: 'error',
      code: 'self_dependency',
      message: `Task "${ids[task]}" depends on itself`,
      task_ids: [ids[task]],
    });
  }

  const order = topologicalOrder(index);
  if (!order) {
    const cycle = findCycle(index) ?? [];
    issues.push({
      severity: 'error',
      code: 'cycle',
      message: `Cycle: ${[...cycle, cycle[0]].join(' → ')}; no task in it can ever start`,
      task_ids: cycle,
    });
  } else {
    for (const { from, to, via } of redundantEdges(index, order)) {
      issues.push({
        severity: 'warning',
        code: 'redundant_dependency',
        message: `Task "${ids[to]}" depends on "${ids[from]}" directly and through "${ids[via]}"; the direct dependency is redundant`,
        task_ids: [ids[to], ids[from]],
      });
    }
  }

  if (taskCount > 1) {
    const selfLooped = new Set(index.selfLoops);
    for (let i = 0; i < index.n; i++) {
      const degree =
        index.succOffsets[i + 1] - index.succOffsets[i] + index.predOffsets[i + 1] - index.predOffsets[i];
      if (degree === 0 && !selfLooped.has(i)) {
        issues.push({
          severity: 'warning',
          code: 'isolated_task',
          message: `Task "${ids[i]}" has no dependencies and nothing depends on it`,
          task_ids: [ids[i]],
        });
      }
    }
  }
  return issues;
}
