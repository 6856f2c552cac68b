import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphTaskInput } from '@/lib/graph';
import { dagArb, isAcyclic, type SmallGraph } from '@/lib/graph/test-arbitraries';
import { SubGraph, TaskData, type SubGraph as SubGraphType } from '@/lib/plan';
import { ISSUE_CODES } from './issue';
import { subgraphIssues } from './subgraph-checks';

function plan(spec: Record<string, string[]>): GraphTaskInput[] {
  return Object.entries(spec).map(([task_id, dependencies]) => ({ task_id, dependencies }));
}

function groups(spec: Record<string, [string[], string[]?]>): SubGraphType[] {
  return Object.entries(spec).map(([subgraph_id, [task_ids, depends_on = []]]) => ({ subgraph_id, task_ids, depends_on }));
}

function check(tasks: GraphTaskInput[], subgraphs: SubGraphType[]) {
  return subgraphIssues(tasks, buildGraphIndex(tasks), subgraphs);
}

const brief = (tasks: GraphTaskInput[], subgraphs: SubGraphType[]) =>
  check(tasks, subgraphs).map((i) => [i.severity, i.code, i.message, i.task_ids]);

// a → b → c, a → d
const TASKS = plan({ a: [], b: ['a'], c: ['b'], d: ['a'] });

describe('subgraphIssues: examples', () => {
  it('accepts a plan with no subgraphs (grouping is optional)', () => {
    expect(check(TASKS, [])).toEqual([]);
    expect(check([], [])).toEqual([]);
  });

  it('accepts a valid grouping, with depends_on in any order', () => {
    expect(check(TASKS, groups({ s1: [['a']], s2: [['b', 'c'], ['s1']], s3: [['d'], ['s1']] }))).toEqual([]);
    expect(check(TASKS, groups({ all: [['d', 'c', 'b', 'a']] }))).toEqual([]);
    // Subgraphs as parsed from a stored plan document, with real PlannerTasks.
    const tasks = TaskData.parse({ planned_tasks: TASKS }).planned_tasks;
    const parsed = [SubGraph.parse({ subgraph_id: 'x', task_ids: ['a', 'b', 'c', 'd'] })];
    expect(subgraphIssues(tasks, buildGraphIndex(tasks), parsed)).toEqual([]);
  });

  it('names tasks that are in no subgraph, in one issue', () => {
    expect(brief(TASKS, groups({ s1: [['a']] }))).toEqual([
      ['error', 'subgraph_coverage', '3 tasks "b", "c", "d" are in no subgraph; each task must be in exactly one', ['b', 'c', 'd']],
    ]);
    expect(brief(TASKS, groups({ s1: [['a', 'b', 'c']] }))).toEqual([
      ['error', 'subgraph_coverage', 'Task "d" is in no subgraph; each task must be in exactly one', ['d']],
    ]);
  });

  it('abbreviates long lists', () => {
    const many = plan(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, []])));
    const [issue] = check(many, groups({ s: [['t0']] }));
    expect(issue!.message).toBe('11 tasks "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8" and 3 more are in no subgraph; each task must be in exactly one');
    expect(issue!.task_ids).toHaveLength(11);
  });

  it('names a task in two subgraphs, or listed twice in one, and then stops', () => {
    expect(brief(TASKS, groups({ s1: [['a', 'b']], s2: [['b', 'c', 'd'], ['s1']] }))).toEqual([
      ['error', 'subgraph_coverage', 'Task "b" is in 2 subgraphs ("s1", "s2"); each task must be in exactly one', ['b']],
    ]);
    expect(brief(TASKS, groups({ s1: [['a', 'b', 'c', 'd', 'a']] }))).toEqual([
      ['error', 'subgraph_coverage', 'Task "a" is listed 2 times in subgraph "s1"; each task must be listed once', ['a']],
    ]);
  });

  it('names ids in a subgraph that are not tasks of the plan', () => {
    expect(brief(TASKS, groups({ s1: [['a', 'b', 'c', 'd', 'zz']] }))).toEqual([
      ['error', 'subgraph_unknown_task', 'Subgraph "s1" lists task "zz", which is not in the plan', ['a', 'b', 'c', 'd']],
    ]);
    expect(brief(TASKS, groups({ s1: [['a', 'b', 'c', 'd', 'x', 'y']] }))[0]![2]).toBe(
      'Subgraph "s1" lists tasks "x", "y", which are not in the plan',
    );
  });

  it('names a duplicate subgraph id, and warns about an empty subgraph', () => {
    expect(brief(TASKS, groups({ s1: [['a', 'b', 'c']] }).concat(groups({ s1: [['d'], ['s1']] })))).toEqual([
      ['error', 'subgraph_duplicate_id', 'Subgraph id "s1" is used by 2 subgraphs; subgraph ids must be unique', ['a', 'b', 'c', 'd']],
    ]);
    expect(brief(TASKS, groups({ s1: [['a', 'b', 'c', 'd']], s2: [[]] }))).toEqual([
      ['warning', 'subgraph_empty', 'Subgraph "s2" has no tasks', []],
    ]);
  });

  it('says which depends_on entries are missing and which are not implied', () => {
    expect(brief(TASKS, groups({ s1: [['a']], s2: [['b', 'c']], s3: [['d'], ['s1']] }))).toEqual([
      [
        'error',
        'subgraph_depends_on',
        'Subgraph "s2": depends_on must list exactly the subgraphs its tasks depend on; missing "s1" (task "b" depends on "a")',
        ['b', 'a'],
      ],
    ]);
    expect(brief(TASKS, groups({ s1: [['a'], ['s3', 's1', 'nope']], s2: [['b', 'c'], ['s1']], s3: [['d'], ['s1']] }))).toEqual([
      [
        'error',
        'subgraph_depends_on',
        'Subgraph "s1": depends_on must list exactly the subgraphs its tasks depend on; not implied "s3" (none of its tasks depends on a task there); "s1" (itself); "nope" (no such subgraph)',
        ['a'],
      ],
      // s1 → s3 (implied) and s3 → s1 (declared): the dispatcher would wait forever.
      [
        'error',
        'subgraph_cycle',
        'Subgraphs wait on each other: s1 → s3 → s1 (task "d" in "s3" depends on "a" in "s1"; "s1" lists "s3" in depends_on); no subgraph in the cycle can start',
        ['d', 'a'],
      ],
    ]);
  });

  it('names a cycle the grouping itself creates: a → b → c with a and c together', () => {
    const chain = plan({ a: [], b: ['a'], c: ['b'] });
    expect(brief(chain, groups({ 'sg-1': [['a', 'c'], ['sg-2']], 'sg-2': [['b'], ['sg-1']] }))).toEqual([
      [
        'error',
        'subgraph_cycle',
        'Subgraphs wait on each other: sg-1 → sg-2 → sg-1 (task "b" in "sg-2" depends on "a" in "sg-1"; task "c" in "sg-1" depends on "b" in "sg-2"); no subgraph in the cycle can start',
        ['b', 'a', 'c'],
      ],
    ]);
  });

  it('uses only the subgraph_ issue codes', () => {
    const issues = check(TASKS, groups({ s1: [['a', 'zz'], ['s9']], s2: [[]] }).concat(groups({ s2: [['b'], ['s2']] })));
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(ISSUE_CODES.filter((code) => code.startsWith('subgraph_'))).toContain(issue.code);
  });
});

// ---------------------------------------------------------------------------
// Property tests against a brute-force oracle on the quotient graph.

const idOfTask = (i: number) => `task-${i}`;

/** Subgraphs from a group number per task, depends_on derived by brute force. */
function partition(g: SmallGraph, groupOf: number[]): SubGraphType[] {
  const used = [...new Set(groupOf)].sort((a, b) => a - b);
  return used.map((k) => {
    const deps = new Set<string>();
    for (const [a, b] of g.edges) if (groupOf[b] === k && groupOf[a] !== k) deps.add(`g${groupOf[a]}`);
    return {
      subgraph_id: `g${k}`,
      task_ids: groupOf.flatMap((x, i) => (x === k ? [idOfTask(i)] : [])),
      depends_on: [...deps],
    };
  });
}

/** The quotient graph of the partition as a SmallGraph, for the acyclicity oracle. */
function quotientAcyclic(g: SmallGraph, groupOf: number[]): boolean {
  const k = Math.max(0, ...groupOf) + 1;
  const seen = new Set<string>();
  const edges: Array<[number, number]> = [];
  for (const [a, b] of g.edges) {
    const [x, y] = [groupOf[a]!, groupOf[b]!];
    if (x === y || seen.has(`${x}>${y}`)) continue;
    seen.add(`${x}>${y}`);
    edges.push([x, y]);
  }
  return isAcyclic({ n: k, edges, tasks: [] });
}

const partitionArb = dagArb(20).chain((g) =>
  fc.record({ g: fc.constant(g), groupOf: fc.array(fc.nat(Math.max(0, g.n - 1)), { minLength: g.n, maxLength: g.n }) }),
);

describe('subgraphIssues: properties', () => {
  it('a partition with derived depends_on has at most a cycle issue, exactly when the quotient graph is cyclic', () => {
    fc.assert(
      fc.property(partitionArb, ({ g, groupOf }) => {
        const issues = check(g.tasks, partition(g, groupOf));
        expect(issues.filter((i) => i.code !== 'subgraph_cycle')).toEqual([]);
        expect(issues.some((i) => i.code === 'subgraph_cycle')).toBe(g.n > 0 && !quotientAcyclic(g, groupOf));
      }),
      { numRuns: 500 },
    );
  });

  it('dropping or adding a depends_on entry is reported on that subgraph', () => {
    fc.assert(
      fc.property(partitionArb, fc.nat(), fc.nat(), ({ g, groupOf }, pick, other) => {
        const subgraphs = partition(g, groupOf);
        fc.pre(subgraphs.length >= 2);
        const s = subgraphs[pick % subgraphs.length]!;
        if (s.depends_on.length > 0) s.depends_on = s.depends_on.slice(1);
        else s.depends_on = [subgraphs.filter((x) => x !== s)[other % (subgraphs.length - 1)]!.subgraph_id];
        const issues = check(g.tasks, subgraphs).filter((i) => i.code === 'subgraph_depends_on');
        expect(issues).toHaveLength(1);
        expect(issues[0]!.message).toContain(`Subgraph "${s.subgraph_id}"`);
      }),
      { numRuns: 500 },
    );
  });

  it('removing a task from its subgraph, or listing it twice, is a coverage error naming it', () => {
    fc.assert(
      fc.property(partitionArb, fc.nat(), fc.boolean(), ({ g, groupOf }, pick, twice) => {
        fc.pre(g.n > 0);
        const subgraphs = partition(g, groupOf);
        const s = subgraphs[pick % subgraphs.length]!;
        const victim = s.task_ids[0]!;
        if (twice) subgraphs[(pick + 1) % subgraphs.length]!.task_ids.push(victim);
        else s.task_ids = s.task_ids.slice(1);
        const coverage = check(g.tasks, subgraphs).filter((i) => i.code === 'subgraph_coverage');
        expect(coverage).toHaveLength(1);
        expect(coverage[0]!.task_ids).toEqual([victim]);
      }),
      { numRuns: 500 },
    );
  });
});
