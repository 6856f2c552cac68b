import { describe, expect, it } from 'vitest';
import { TaskData, invisibleCharacters, showInvisible, type PlannerTaskInput } from '@/lib/plan';
import { ISSUE_CAPS, validatePlan, type ValidationIssue } from '@/lib/validate';
import { capIssues } from './issue-caps';

const plan = (tasks: PlannerTaskInput[], extra: object = {}) => TaskData.parse({ planned_tasks: tasks, ...extra });
const issues = (tasks: PlannerTaskInput[], extra: object = {}) => validatePlan(plan(tasks, extra)).issues;

describe('missing_target', () => {
  it('is an error naming the field for agent, tool and dsl tasks without a target', () => {
    const found = issues([
      { task_id: 'a', execution_type: 'agent' },
      { task_id: 't', execution_type: 'tool', function_id: 'not-the-tool-field', dependencies: ['a'] },
      { task_id: 'd', execution_type: 'dsl', tool_id: 'wrong-field', dependencies: ['t'] },
      { task_id: 'l', execution_type: 'llm', dependencies: ['d'] },
    ]).filter((i) => i.code === 'missing_target');
    expect(found.map((i) => [i.severity, i.task_ids[0]])).toEqual([
      ['error', 'a'],
      ['error', 't'],
      ['error', 'd'],
    ]);
    expect(found[0].message).toContain('agent_id');
    expect(found[1].message).toContain('tool_id');
    expect(found[2].message).toContain('function_id');
  });

  it('reads the kind from seed 000 spellings and accepts a task with its target', () => {
    const found = issues([
      { task_id: 'a', execution_type: 'l2_task', parameters: { sub_type: 'agent' } },
      { task_id: 'b', execution_type: 'tool_call', dependencies: ['a'] },
      { task_id: 'c', execution_type: 'l2_task', parameters: { sub_type: 'tools' }, tool_id: 'http_get', dependencies: ['b'] },
      { task_id: 'd', execution_type: 'agent', agent_id: '  ', dependencies: ['c'] },
    ]);
    expect(found.filter((i) => i.code === 'missing_target').map((i) => i.task_ids[0])).toEqual(['a', 'b', 'd']);
    expect(found.filter((i) => i.code === 'unknown_execution_type')).toEqual([]);
  });

  it('leaves an llm task without a model alone (Stage 2 or the executor picks it)', () => {
    expect(validatePlan(plan([{ task_id: 'l', execution_type: 'llm' }]))).toEqual({ valid: true, issues: [] });
  });

  it('says an l2_task without a known sub_type is unknown', () => {
    const [issue] = issues([{ task_id: 'x', execution_type: 'l2_task', parameters: { sub_type: 'robot' } }]);
    expect(issue.code).toBe('unknown_execution_type');
    expect(issue.message).toContain('sub_type');
  });
});

describe('invisible_characters', () => {
  it('finds bidi controls and zero-width characters and names them', () => {
    expect(invisibleCharacters('plain text')).toEqual([]);
    expect(invisibleCharacters('a\u202Eb\u200Bc\u202Ed')).toEqual(['U+202E', 'U+200B']);
    for (const c of ['\u202A', '\u202D', '\u2066', '\u2069', '\u200E', '\u200F', '\u061C', '\u200C', '\u200D', '\u2060', '\uFEFF']) {
      expect(invisibleCharacters(`x${c}y`)).toHaveLength(1);
    }
    expect(showInvisible('a\u202Eb')).toBe('a<U+202E>b');
  });

  it('warns about task ids, descriptions and the plan task_id, showing the characters visibly', () => {
    const found = issues(
      [
        { task_id: 'fetch\u202Etxt.exe', execution_type: 'llm', description: 'ok' },
        { task_id: 'sum', execution_type: 'llm', description: 'Sum\u200Bmarise', dependencies: ['fetch\u202Etxt.exe'] },
      ],
      { task_id: 'job\uFEFF' },
    ).filter((i) => i.code === 'invisible_characters');
    expect(found.map((i) => [i.severity, i.task_ids])).toEqual([
      ['warning', []],
      ['warning', ['fetch\u202Etxt.exe']],
      ['warning', ['sum']],
    ]);
    expect(found[0].message).toContain('U+FEFF');
    expect(found[1].message).toContain('U+202E');
    expect(found[2].message).toContain('U+200B');
    // The message itself carries no invisible character: it cannot disguise what it says.
    for (const issue of found) expect(invisibleCharacters(issue.message)).toEqual([]);
  });
});

describe('capped results', () => {
  it('lists at most maxIssues issues, the last one summarising the rest', () => {
    const tasks = Array.from({ length: 2000 }, (_, i) => ({ task_id: `t${i}`, execution_type: 'agent', dependencies: [`ghost${i}`] }));
    const result = validatePlan(plan(tasks));
    expect(result.valid).toBe(false);
    expect(result.issues).toHaveLength(ISSUE_CAPS.maxIssues);
    const last = result.issues.at(-1)!;
    expect(last).toMatchObject({ severity: 'error', code: 'issues_truncated', task_ids: [] });
    expect(last.message).toMatch(/^3,501 errors and 2,000 warnings more not listed/);
  });

  it('clips each message and bounds the whole answer, however long the ids', () => {
    const long = 'x'.repeat(100_000);
    const tasks = Array.from({ length: 40 }, (_, i) => ({ task_id: `${long}${i}`, execution_type: 'llm', dependencies: [`${long}-missing`] }));
    const result = validatePlan(plan(tasks));
    expect(result.issues.every((i) => i.message.length <= ISSUE_CAPS.maxMessageChars)).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(ISSUE_CAPS.maxTotalChars + 100_000);
    expect(result.issues.at(-1)!.code).toBe('issues_truncated');
  });

  it('passes a small result through unchanged', () => {
    const few: ValidationIssue[] = [{ severity: 'warning', code: 'isolated_task', message: 'm', task_ids: ['a'] }];
    expect(capIssues(few)).toEqual(few);
  });
});
