import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskData } from '@/lib/plan';
import { DEMO_REGISTRY, RESOURCE_KINDS, Registry } from '@/lib/registry';
import { ISSUE_CODES, type ValidationIssue } from './issue';
import { groupIssues, issueGroupTitle, matchesIssueFilter } from './issue-groups';
import { validatePlan } from './validate-plan';
import { EDITOR_ISSUE_CAPS } from './issue-caps';

const registry = Registry.parse(DEMO_REGISTRY);
const routed = (tools: string[]) =>
  TaskData.parse({ planned_tasks: tools.map((tool_id, i) => ({ task_id: `t${i}`, execution_type: 'tool', tool_id, dependencies: i ? [`t${i - 1}`] : [] })) });

describe('grouped issues', () => {
  it('puts every task routed to an unregistered tool in one group, counted per tool, most first', () => {
    const { issues } = validatePlan(routed(['mProject', 'mDiffFit', 'mDiffFit', 'mDiffFit', 'mProject', 'mAdd']), registry);
    const [group] = groupIssues(issues).filter((g) => g.code === 'unknown_target');
    expect(group.issues).toHaveLength(6);
    expect(issueGroupTitle(group)).toBe('unknown tool');
    expect(group.targets).toEqual([
      { kind: 'tools', id: 'mDiffFit', count: 3 },
      { kind: 'tools', id: 'mProject', count: 2 },
      { kind: 'tools', id: 'mAdd', count: 1 },
    ]);
  });

  it('keeps every issue in the editor, where the server would list 500', () => {
    const plan = routed(Array.from({ length: 2_122 }, (_, i) => `tool${i % 9}`));
    expect(validatePlan(plan, registry).issues).toHaveLength(500);
    const [group] = groupIssues(validatePlan(plan, registry, [], EDITOR_ISSUE_CAPS).issues);
    expect(group.issues).toHaveLength(2_122);
    expect(group.targets).toHaveLength(9);
  });

  it('names the group by its code where its issues name no resource', () => {
    const issue: ValidationIssue = { severity: 'error', code: 'missing_parameter', message: 'm', task_ids: ['a'] };
    expect(groupIssues([issue]).map(issueGroupTitle)).toEqual(['missing parameter']);
  });

  it('filters by severity and by text in the message, target or task ids', () => {
    const issue: ValidationIssue = { severity: 'error', code: 'unknown_target', message: 'Task "a1" is routed', task_ids: ['a1'], target: { kind: 'tools', id: 'mProject' } };
    expect(matchesIssueFilter(issue, { text: 'MPROJ', severity: 'all' })).toBe(true);
    expect(matchesIssueFilter(issue, { text: 'a1', severity: 'error' })).toBe(true);
    expect(matchesIssueFilter(issue, { text: 'unknown target', severity: 'all' })).toBe(true);
    expect(matchesIssueFilter(issue, { text: '', severity: 'warning' })).toBe(false);
    expect(matchesIssueFilter(issue, { text: 'mDiff', severity: 'all' })).toBe(false);
  });

  it('places every issue in exactly one group, and the per-resource counts add up', () => {
    const issue = fc.record(
      {
        severity: fc.constantFrom('error' as const, 'warning' as const),
        code: fc.constantFrom(...ISSUE_CODES),
        message: fc.string(),
        task_ids: fc.array(fc.string(), { maxLength: 3 }),
        target: fc.record({ kind: fc.constantFrom(...RESOURCE_KINDS), id: fc.constantFrom('a', 'b', 'c') }),
      },
      { requiredKeys: ['severity', 'code', 'message', 'task_ids'] },
    );
    fc.assert(
      fc.property(fc.array(issue, { maxLength: 60 }), (issues) => {
        const groups = groupIssues(issues);
        const placed = groups.flatMap((g) => g.issues);
        expect(placed).toHaveLength(issues.length);
        expect(new Set(placed)).toEqual(new Set(issues));
        expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
        for (const group of groups) {
          expect(group.issues.every((i) => i.severity === group.severity && i.code === group.code)).toBe(true);
          expect(group.targets.reduce((sum, t) => sum + t.count, 0)).toBe(group.issues.filter((i) => i.target).length);
        }
      }),
    );
  });
});
