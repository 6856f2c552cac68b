export * from './issue';
export { validatePlan, validatePlanAsync } from './validate-plan';
export { ISSUE_CAPS, capIssues } from './issue-caps';
export { titleIssue } from './text-checks';
// Shared with the server, which checks plan titles with it.
export { invisibleCharacters, showInvisible } from '@/lib/plan';
