export * from './issue';
export { validatePlan, validatePlanAsync } from './validate-plan';
export { EDITOR_ISSUE_CAPS, ISSUE_CAPS, capIssues, type IssueCaps } from './issue-caps';
export { groupIssues, issueGroupTitle, matchesIssueFilter, type IssueFilter, type IssueGroup, type IssueTargetCount } from './issue-groups';
export { titleIssue } from './text-checks';
// Shared with the server, which checks plan titles with it.
export { invisibleCharacters, showInvisible } from '@/lib/plan';
