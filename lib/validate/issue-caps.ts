import { showInvisible } from '@/lib/plan';
import type { ValidationIssue } from './issue';

// A validation answer stays small whatever the plan or registry holds: a hostile plan (a
// thousand-fold missing dependency, megabyte ids quoted in every message) once produced a
// 141 MB answer. Issues past the cap are summarised in one final issue; each message is
// clipped and shows invisible characters visibly, so none can disguise what it says.

export const ISSUE_CAPS: Readonly<{ maxIssues: number; maxMessageChars: number; maxTaskIdsPerIssue: number; maxTotalChars: number }> = {
  maxIssues: 500,
  maxMessageChars: 500,
  maxTaskIdsPerIssue: 1000,
  /** Characters of messages and task ids in one result, so long ids cannot multiply either. */
  maxTotalChars: 1_000_000,
};
export type IssueCaps = typeof ISSUE_CAPS;

/**
 * The editor validates in the author's own browser and groups what it finds, so it keeps
 * every issue (the montage trace has 2,122 unknown tools) and still clips each one.
 */
export const EDITOR_ISSUE_CAPS: IssueCaps = { ...ISSUE_CAPS, maxIssues: Number.MAX_SAFE_INTEGER, maxTotalChars: 50_000_000 };

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `issues` (already in order of importance) capped by ISSUE_CAPS, with a summary of what was left out. */
export function capIssues(issues: readonly ValidationIssue[], caps: IssueCaps = ISSUE_CAPS): ValidationIssue[] {
  const kept: ValidationIssue[] = [];
  let budget = caps.maxTotalChars;
  for (const issue of issues) {
    if (kept.length === caps.maxIssues - 1 && issues.length > caps.maxIssues) break;
    const message = clip(showInvisible(issue.message), caps.maxMessageChars);
    const taskIds = issue.task_ids.slice(0, caps.maxTaskIdsPerIssue);
    const target = issue.target && { ...issue.target, id: clip(showInvisible(issue.target.id), caps.maxMessageChars) };
    const size = message.length + taskIds.reduce((sum, id) => sum + id.length, 0) + (target?.id.length ?? 0);
    if (size > budget) break;
    budget -= size;
    kept.push(target ? { ...issue, message, task_ids: taskIds, target } : { ...issue, message, task_ids: taskIds });
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
