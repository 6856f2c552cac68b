import { showInvisible } from '@/lib/plan';
import type { ValidationIssue } from './issue';

// A validation answer stays small whatever the plan or registry holds: a hostile plan (a
// thousand-fold missing dependency, megabyte ids quoted in every message) once produced a
// 141 MB answer. Issues past the cap are summarised in one final issue; each message is
// clipped and shows invisible characters visibly, so none can disguise what it says.

export const ISSUE_CAPS = {
  maxIssues: 500,
  maxMessageChars: 500,
  maxTaskIdsPerIssue: 1000,
  /** Characters of messages and task ids in one result, so long ids cannot multiply either. */
  maxTotalChars: 1_000_000,
} as const;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `issues` (already in order of importance) capped by ISSUE_CAPS, with a summary of what was left out. */
export function capIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const kept: ValidationIssue[] = [];
  let budget = ISSUE_CAPS.maxTotalChars;
  for (const issue of issues) {
    if (kept.length === ISSUE_CAPS.maxIssues - 1 && issues.length > ISSUE_CAPS.maxIssues) break;
    const message = clip(showInvisible(issue.message), ISSUE_CAPS.maxMessageChars);
    const taskIds = issue.task_ids.slice(0, ISSUE_CAPS.maxTaskIdsPerIssue);
    const size = message.length + taskIds.reduce((sum, id) => sum + id.length, 0);
    if (size > budget) break;
    budget -= size;
    kept.push({ ...issue, message, task_ids: taskIds });
  }
  const left = issues.slice(kept.length);
  if (left.length === 0) return kept;
  const errors = left.filter((issue) => issue.severity === 'error').length;
  const parts = [errors && `${errors.toLocaleString('en')} error${errors === 1 ? '' : 's'}`, left.length - errors && `${(left.length - errors).toLocaleString('en')} warning${left.length - errors === 1 ? '' : 's'}`].filter(Boolean);
  kept.push({
    severity: errors ? 'error' : 'warning',
    code: 'issues_truncated',
    message: `${parts.join(' and ')} more not listed; fix the ones above and validate again`,
    task_ids: [],
  });
  return kept;
}
