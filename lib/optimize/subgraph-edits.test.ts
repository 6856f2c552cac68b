import { describe, expect, it } from 'vitest';
import { PlanCommandError, PlanDocument } from '@/lib/plan';
import { validatePlan } from '@/lib/validate';
import { mergeSubgraphs, moveTasksToSubgraph, normaliseSubgraphs, resyncSubgraphs, setSubgraphs, splitSubgraph } from './subgraph-edits';

// a → b → c, and d → c: sg-1 = [a, b], sg-2 = [c], sg-3 = [d].
function grouped() {
  const doc = PlanDocument.parse({
    plan: {
      planned_tasks: [
        { task_id: 'a' },
        { task_id: 'b', dependencies: ['a'] },
        { task_id: 'c', dependencies: ['b', 'd'] },
        { task_id: 'd' },
      ],
    },
  });
  return setSubgraphs(doc, [
    { subgraph_id: 'sg-1', task_ids: ['b', 'a'] },
    { subgraph_id: 'sg-2', task_ids: ['c'] },
    { subgraph_id: 'sg-3', task_ids: ['d'] },
  ]);
}

const errorsOf = (doc: PlanDocument) => validatePlan(doc.plan, undefined, doc.subgraphs).issues.filter((i) => i.code.startsWith('subgraph_'));

describe('subgraph edits', () => {
  it('orders each subgraph by dependency and derives depends_on from the tasks', () => {
    const doc = grouped();
    expect(doc.subgraphs).toEqual([
      { subgraph_id: 'sg-1', task_ids: ['a', 'b'], depends_on: [] },
      { subgraph_id: 'sg-2', task_ids: ['c'], depends_on: ['sg-1', 'sg-3'] },
      { subgraph_id: 'sg-3', task_ids: ['d'], depends_on: [] },
    ]);
    expect(errorsOf(doc)).toEqual([]);
  });

  it('moves a task to another subgraph and drops the emptied one', () => {
    const doc = moveTasksToSubgraph(grouped(), ['d'], 'sg-2');
    expect(doc.subgraphs.map((sg) => [sg.subgraph_id, sg.task_ids, sg.depends_on])).toEqual([
      ['sg-1', ['a', 'b'], []],
      ['sg-2', ['d', 'c'], ['sg-1']],
    ]);
    expect(errorsOf(doc)).toEqual([]);
  });

  it('refuses a move that makes subgraphs wait on each other, naming the cycle', () => {
    // b into sg-2 leaves sg-1 = [a] feeding sg-2 = [b, c]… fine; a into sg-2 with b left behind is a cycle.
    const doc = grouped();
    expect(() => moveTasksToSubgraph(doc, ['a'], 'sg-2')).toThrow(PlanCommandError);
    expect(() => moveTasksToSubgraph(doc, ['a'], 'sg-2')).toThrow(/Subgraphs wait on each other: sg-1 → sg-2 → sg-1|sg-2 → sg-1 → sg-2/);
  });

  it('splits selected tasks into a new subgraph, refusing a split that would cycle', () => {
    const doc = grouped();
    const { doc: split, subgraphId } = splitSubgraph(doc, ['b']);
    expect(subgraphId).toBe('sg-4');
    expect(split.subgraphs.find((sg) => sg.subgraph_id === 'sg-4')).toEqual({ subgraph_id: 'sg-4', task_ids: ['b'], depends_on: ['sg-1'] });
    expect(errorsOf(split)).toEqual([]);

    const chain = setSubgraphs(doc, [
      { subgraph_id: 'sg-1', task_ids: ['a', 'b', 'c'] },
      { subgraph_id: 'sg-2', task_ids: ['d'] },
    ]);
    expect(() => splitSubgraph(chain, ['b'])).toThrow(/wait on each other/);
    expect(() => splitSubgraph(chain, ['a', 'b', 'c'])).toThrow(/all the tasks of subgraph "sg-1"/);
    expect(() => splitSubgraph(chain, ['a', 'd'])).toThrow(/more than one subgraph/);
  });

  it('merges subgraphs into the first, refusing a merge around another subgraph', () => {
    const merged = mergeSubgraphs(grouped(), ['sg-2', 'sg-3']);
    expect(merged.subgraphs).toEqual([
      { subgraph_id: 'sg-1', task_ids: ['a', 'b'], depends_on: [] },
      { subgraph_id: 'sg-2', task_ids: ['d', 'c'], depends_on: ['sg-1'] },
    ]);
    const three = setSubgraphs(grouped(), [
      { subgraph_id: 'x', task_ids: ['a'] },
      { subgraph_id: 'y', task_ids: ['b'] },
      { subgraph_id: 'z', task_ids: ['c', 'd'] },
    ]);
    expect(() => mergeSubgraphs(three, ['x', 'z'])).toThrow(/wait on each other/);
    expect(() => mergeSubgraphs(three, ['x'])).toThrow(/at least two/);
  });

  it('gives new tasks a subgraph of their own and forgets removed ones', () => {
    const doc = grouped();
    const added = { ...doc, plan: { ...doc.plan, planned_tasks: [...doc.plan.planned_tasks.filter((t) => t.task_id !== 'd'), PlanDocument.shape.plan.parse({ planned_tasks: [{ task_id: 'e', dependencies: ['c'] }] }).planned_tasks[0]!] } };
    const synced = resyncSubgraphs(added);
    expect(synced.subgraphs.map((sg) => [sg.subgraph_id, sg.task_ids, sg.depends_on])).toEqual([
      ['sg-1', ['a', 'b'], []],
      ['sg-2', ['c'], ['sg-1']],
      ['sg-4', ['e'], ['sg-2']],
    ]);
    expect(errorsOf(synced)).toEqual([]);
    expect(resyncSubgraphs(synced)).toBe(synced);
  });

  it('leaves unknown ids for validation and keeps the order of a cyclic plan', () => {
    const tasks = [
      { task_id: 'p', dependencies: ['q'] },
      { task_id: 'q', dependencies: ['p'] },
    ];
    expect(normaliseSubgraphs(tasks, [{ subgraph_id: 's', task_ids: ['q', 'p', 'ghost'] }])).toEqual([{ subgraph_id: 's', task_ids: ['q', 'p', 'ghost'], depends_on: [] }]);
  });
});
