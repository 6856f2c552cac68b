import { EXECUTION_TYPE_LIST } from '@/lib/plan';
import type { ResourceKind } from '@/lib/registry';
import type { IssueCode, Severity, ValidationIssue } from './issue';

// A large imported plan repeats one problem thousands of times (2,122 tasks routed to tools
// the registry lacks): the issues panel shows one group per kind of problem, with how many
// each resource it names accounts for, instead of thousands of near-identical lines.

export interface IssueTargetCount {
  kind: ResourceKind;
  id: string;
  count: number;
}

export interface IssueGroup {
  /** Stable across re-validation: severity and code. */
  key: string;
  severity: Severity;
  code: IssueCode;
  /** The group's issues, in validation's order. */
  issues: ValidationIssue[];
  /** The resources the issues name, most issues first; empty when they name none. */
  targets: IssueTargetCount[];
}

/** Groups by severity and code, in the order each first appears (validation puts errors first). */
export function groupIssues(issues: readonly ValidationIssue[]): IssueGroup[] {
  const groups = new Map<string, IssueGroup & { counts: Map<string, IssueTargetCount> }>();
  for (const issue of issues) {
    const key = `${issue.severity}:${issue.code}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, severity: issue.severity, code: issue.code, issues: [], targets: [], counts: new Map() };
      groups.set(key, group);
    }
    group.issues.push(issue);
    if (issue.target) {
      const targetKey = `${issue.target.kind}\u0000${issue.target.id}`;
      const count = group.counts.get(targetKey) ?? { ...issue.target, count: 0 };
      count.count += 1;
      group.counts.set(targetKey, count);
    }
  }
  return [...groups.values()].map(({ counts, ...group }) => ({ ...group, targets: [...counts.values()].sort((a, b) => b.count - a.count) }));
}

const NOUNS = new Map<ResourceKind, string>(EXECUTION_TYPE_LIST.flatMap((d) => d.registryKinds.map((kind) => [kind, d.resourceNoun] as const)));

/** "unknown tool" where every resource named is a tool, else the code in words: "missing parameter". */
export function issueGroupTitle(group: Pick<IssueGroup, 'code' | 'targets'>): string {
  const nouns = new Set(group.targets.map((t) => NOUNS.get(t.kind)));
  if (group.code === 'unknown_target' && nouns.size === 1) return `unknown ${[...nouns][0]}`;
  return group.code.replaceAll('_', ' ');
}

export interface IssueFilter {
  /** Matched case-insensitively against the message, code, target and task ids. */
  text: string;
  severity: Severity | 'all';
}

export function matchesIssueFilter(issue: ValidationIssue, filter: IssueFilter): boolean {
  if (filter.severity !== 'all' && issue.severity !== filter.severity) return false;
  const text = filter.text.trim().toLowerCase();
  if (!text) return true;
  return [issue.message, issue.code, issue.code.replaceAll('_', ' '), issue.target?.id ?? '', ...issue.task_ids].some((field) => field.toLowerCase().includes(text));
}
