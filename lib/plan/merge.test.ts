import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument, addDependency, addTask, removeTasks, setPositions, updateTask } from '@/lib/plan';
import { buildGraphIndex, findCycle, willCreateCycle } from '@/lib/graph';
import { cycleConflictKey, groupingConflictKey, mergePlans, subgraphConflictKey, taskConflictKey, type MergeSide } from './merge';

const T0 = '2026-01-01T00:00:00Z';
const task = (task_id: string, dependencies: string[] = []) => ({ task_id, description: task_id.toUpperCase(), dependencies, creation_time: T0, last_update_time: T0 });

const base = PlanDocument.parse({
  plan: { planned_tasks: [task('a'), task('b', ['a']), task('c', ['a']), task('d', ['b', 'c']), task('e'), task('f', ['e'])] },
  view: { positions: { a: { x: 0, y: 0 }, b: { x: 100, y: 0 } } },
});

const byId = (doc: PlanDocument, id: string) => doc.plan.planned_tasks.find((t) => t.task_id === id);

describe('mergePlans', () => {
  it('keeps both sides’ edits to different fields of one task', () => {
    const mine = updateTask(base, 'b', { description: 'Mine' });
    const theirs = updateTask(base, 'b', { instructions: 'Theirs' });
    const { doc, conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(byId(doc, 'b')).toMatchObject({ description: 'Mine', instructions: 'Theirs' });
  });

  it('reports one field both sides changed differently, and the chosen side settles it', () => {
    const mine = updateTask(base, 'b', { description: 'Mine', instructions: 'Only mine' });
    const theirs = updateTask(base, 'b', { description: 'Theirs' });
    const { conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts).toEqual([{ key: 'task:b', taskId: 'b', fields: [{ field: 'description', base: 'B', mine: 'Mine', theirs: 'Theirs' }] }]);
    const settled = mergePlans(base, mine, theirs, { [taskConflictKey('b')]: 'theirs' });
    expect(settled.conflicts).toEqual([]);
    expect(byId(settled.doc, 'b')).toMatchObject({ description: 'Theirs', instructions: 'Only mine' });
  });

  it('unions dependencies both sides added to one task', () => {
    const mine = addDependency(base, 'e', 'd');
    const theirs = addDependency(base, 'f', 'd');
    const { doc, conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(byId(doc, 'd')!.dependencies).toEqual(['b', 'c', 'e', 'f']);
  });

  it('keeps tasks added on either side and drops one deleted on a side the other left alone', () => {
    const mine = addTask(removeTasks(base, ['e', 'f']), { task_id: 'm1', dependencies: ['a'] });
    const theirs = addTask(updateTask(base, 'a', { description: 'Theirs' }), { task_id: 't1' });
    const { doc, conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(doc.plan.planned_tasks.map((t) => t.task_id)).toEqual(['a', 'b', 'c', 'd', 'm1', 't1']);
    expect(byId(doc, 'a')!.description).toBe('Theirs');
  });

  it('calls deleting a task the other side edited a conflict, either way round', () => {
    const mine = updateTask(base, 'e', { description: 'Edited' });
    const theirs = removeTasks(base, ['e']);
    const { conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts.map((c) => c.key)).toEqual(['task:e']);
    expect(conflicts[0].fields[0]).toMatchObject({ field: 'task', theirs: null });
    expect(byId(mergePlans(base, mine, theirs, { 'task:e': 'theirs' }).doc, 'e')).toBeUndefined();
    expect(byId(mergePlans(base, mine, theirs, { 'task:e': 'mine' }).doc, 'e')!.description).toBe('Edited');
    expect(mergePlans(base, theirs, mine).conflicts.map((c) => c.key)).toEqual(['task:e']);
  });

  it('calls depending on a task the other side deleted a conflict', () => {
    const mine = addDependency(base, 'e', 'c');
    const theirs = removeTasks(base, ['e', 'f']);
    expect(mergePlans(base, mine, theirs).conflicts.map((c) => c.key)).toEqual(['task:e']);
    const settled = mergePlans(base, mine, theirs, { 'task:e': 'theirs' });
    expect(settled.conflicts).toEqual([]);
    expect(byId(settled.doc, 'c')!.dependencies).toEqual(['a']);
  });

  it('never conflicts on view data: my positions win, theirs fill in', () => {
    const mine = updateTask(setPositions(base, { a: { x: 1, y: 1 } }), 'a', { description: 'x' });
    const theirs = updateTask(setPositions(base, { a: { x: 2, y: 2 }, b: { x: 3, y: 3 } }), 'b', { description: 'y' });
    const { doc, conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(doc.view.positions).toEqual({ a: { x: 1, y: 1 }, b: { x: 3, y: 3 } });
  });

  it('merges the job field by field', () => {
    const mine = { ...base, job: { ...base.job, task_description: 'Mine' } };
    const theirs = { ...base, job: { ...base.job, job_goal: { goal: 'Theirs' } } };
    const { doc, conflicts } = mergePlans(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(doc.job).toMatchObject({ task_description: 'Mine', job_goal: { goal: 'Theirs' } });
  });
});

describe('mergePlans: cycles', () => {
  it('calls a cycle that only both sides together make a conflict, and the chosen side breaks it', () => {
    const mine = addDependency(base, 'f', 'a'); // a now waits for f
    const theirs = addDependency(base, 'd', 'e'); // e now waits for d: a → b → d → e → f → a
    const { doc, conflicts } = mergePlans(base, mine, theirs);
    expect(findCycle(buildGraphIndex(doc.plan.planned_tasks))).not.toBeNull();
    expect(conflicts).toHaveLength(1);
    const [conflict] = conflicts;
    expect(conflict.key).toBe(cycleConflictKey(['a', 'b', 'd', 'e', 'f']));
    expect(conflict.cycle).toHaveLength(5);
    expect(conflict.fields.map((f) => [f.field, f.mine, f.theirs])).toEqual(
      expect.arrayContaining([
        ['a dependencies', ['f'], []],
        ['e dependencies', [], ['d']],
      ]),
    );

    const keepMine = mergePlans(base, mine, theirs, { [conflict.key]: 'mine' });
    expect(keepMine.conflicts).toEqual([]);
    expect([byId(keepMine.doc, 'a')?.dependencies, byId(keepMine.doc, 'e')?.dependencies]).toEqual([['f'], []]);
    const takeTheirs = mergePlans(base, mine, theirs, { [conflict.key]: 'theirs' });
    expect(takeTheirs.conflicts).toEqual([]);
    expect([byId(takeTheirs.doc, 'a')?.dependencies, byId(takeTheirs.doc, 'e')?.dependencies]).toEqual([[], ['d']]);
  });

  it('calls the two directions of one new edge a conflict', () => {
    const { conflicts } = mergePlans(base, addDependency(base, 'e', 'b'), addDependency(base, 'b', 'e'));
    expect(conflicts.map((c) => c.key)).toEqual([cycleConflictKey(['b', 'e'])]);
  });

  it('never leaves a cycle once every conflict is chosen, whatever edges each side adds', () => {
    const ids = base.plan.planned_tasks.map((t) => t.task_id);
    const edges = fc.array(fc.tuple(fc.nat(ids.length - 1), fc.nat(ids.length - 1)), { maxLength: 6 });
    const addAll = (doc: PlanDocument, list: Array<[number, number]>) =>
      list.reduce((d, [from, to]) => {
        // A cycle on this side alone is refused, as the editor refuses it; so is a duplicate.
        if (willCreateCycle(buildGraphIndex(d.plan.planned_tasks), ids[from]!, ids[to]!)) return d;
        try {
          return addDependency(d, ids[from]!, ids[to]!);
        } catch {
          return d;
        }
      }, doc);
    fc.assert(
      fc.property(edges, edges, fc.constantFrom<MergeSide>('mine', 'theirs'), (ea, eb, side) => {
        const mine = addAll(base, ea);
        const theirs = addAll(base, eb);
        expect(findCycle(buildGraphIndex(mine.plan.planned_tasks))).toBeNull();
        const choices: Record<string, MergeSide> = {};
        let result = mergePlans(base, mine, theirs, choices);
        for (let round = 0; result.conflicts.length && round < 20; round++) {
          for (const c of result.conflicts) choices[c.key] = side;
          result = mergePlans(base, mine, theirs, choices);
        }
        expect(result.conflicts).toEqual([]);
        expect(findCycle(buildGraphIndex(result.doc.plan.planned_tasks))).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('mergePlans: subgraphs', () => {
  const grouped = PlanDocument.parse({
    ...base,
    subgraphs: [
      { subgraph_id: 'sg-1', task_ids: ['a', 'b'] },
      { subgraph_id: 'sg-2', task_ids: ['c', 'd'] },
    ],
  });
  const withGroups = (doc: PlanDocument, subgraphs: PlanDocument['subgraphs']) => ({ ...doc, subgraphs });

  it('merges group by group: a choice on one group keeps the other side’s edits to the rest', () => {
    // Mine deletes sg-2; theirs changes sg-2 and, separately, adds e and f as sg-3.
    const mine = withGroups(grouped, [grouped.subgraphs[0]!, { subgraph_id: 'sg-9', task_ids: ['c', 'd'], depends_on: [] }]);
    const theirs = withGroups(grouped, [
      grouped.subgraphs[0]!,
      { subgraph_id: 'sg-2', task_ids: ['c'], depends_on: [] },
      { subgraph_id: 'sg-3', task_ids: ['d', 'e', 'f'], depends_on: [] },
    ]);
    const first = mergePlans(grouped, mine, theirs);
    expect(first.conflicts.map((c) => c.key).sort()).toEqual([groupingConflictKey('d'), subgraphConflictKey('sg-2')].sort());
    const { doc, conflicts } = mergePlans(grouped, mine, theirs, { [subgraphConflictKey('sg-2')]: 'mine', [groupingConflictKey('d')]: 'mine' });
    expect(conflicts).toEqual([]);
    expect(doc.subgraphs.map((s) => [s.subgraph_id, s.task_ids])).toEqual([
      ['sg-1', ['a', 'b']],
      ['sg-3', ['e', 'f']],
      ['sg-9', ['c', 'd']],
    ]);
  });

  it('keeps both groups when each side adds a different one under the same fresh id', () => {
    const mine = withGroups(base, [{ subgraph_id: 'sg-1', task_ids: ['a', 'b', 'c', 'd'], depends_on: [] }]);
    const theirs = withGroups(base, [{ subgraph_id: 'sg-1', task_ids: ['e', 'f'], depends_on: [] }]);
    const { doc, conflicts } = mergePlans(base, { ...mine, view: { ...mine.view, collapsed: ['sg-1'] } }, theirs);
    expect(conflicts).toEqual([]);
    expect(doc.subgraphs.map((s) => [s.subgraph_id, s.task_ids])).toEqual([
      ['sg-1', ['e', 'f']],
      ['sg-1-2', ['a', 'b', 'c', 'd']],
    ]);
    expect(doc.view.collapsed).toEqual(['sg-1-2']);
  });

  it('keeps one group both sides added alike', () => {
    const both = withGroups(base, [{ subgraph_id: 'sg-1', task_ids: ['e', 'f'], depends_on: [] }]);
    const mine = updateTask(both, 'a', { description: 'Mine' });
    const { doc, conflicts } = mergePlans(base, mine, both);
    expect(conflicts).toEqual([]);
    expect(doc.subgraphs).toEqual(both.subgraphs);
  });
});

// Non-overlapping edits: each side works on its own half of the tasks (and adds its own).
type Edit =
  | { kind: 'describe'; index: number; text: string }
  | { kind: 'instruct'; index: number; text: string }
  | { kind: 'argue'; index: number; value: number }
  | { kind: 'add'; name: string; depIndex: number }
  | { kind: 'delete'; index: number }
  | { kind: 'depend'; from: number; to: number }
  | { kind: 'move'; index: number; x: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('describe' as const), index: fc.nat(2), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('instruct' as const), index: fc.nat(2), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('argue' as const), index: fc.nat(2), value: fc.integer() }),
  fc.record({ kind: fc.constant('add' as const), name: fc.stringMatching(/^[a-z]{1,4}$/), depIndex: fc.nat(3) }),
  fc.record({ kind: fc.constant('delete' as const), index: fc.nat(2) }),
  fc.record({ kind: fc.constant('depend' as const), from: fc.nat(2), to: fc.nat(2) }),
  fc.record({ kind: fc.constant('move' as const), index: fc.nat(2), x: fc.integer({ min: -500, max: 500 }) }),
);

/** Applies edits to the tasks `own` names (and tasks this side added, prefixed), skipping any that no longer apply. */
function applyEdits(doc: PlanDocument, own: string[], prefix: string, edits: Edit[]): PlanDocument {
  let next = doc;
  const mine = [...own];
  const alive = (id: string) => next.plan.planned_tasks.some((t) => t.task_id === id);
  for (const e of edits) {
    const pick = (i: number) => mine.filter(alive)[i % Math.max(1, mine.filter(alive).length)];
    try {
      if (e.kind === 'describe' && pick(e.index)) next = updateTask(next, pick(e.index)!, { description: e.text });
      if (e.kind === 'instruct' && pick(e.index)) next = updateTask(next, pick(e.index)!, { instructions: e.text });
      if (e.kind === 'argue' && pick(e.index)) next = updateTask(next, pick(e.index)!, { arguments: { n: e.value } });
      if (e.kind === 'move' && pick(e.index)) next = setPositions(next, { [pick(e.index)!]: { x: e.x, y: 0 } });
      if (e.kind === 'add' && !alive(`${prefix}${e.name}`)) {
        const dep = pick(e.depIndex);
        next = addTask(next, { task_id: `${prefix}${e.name}`, creation_time: T0, last_update_time: T0, dependencies: dep ? [dep] : [] });
        mine.push(`${prefix}${e.name}`);
      }
      if (e.kind === 'delete' && pick(e.index)) next = removeTasks(next, [pick(e.index)!]);
      // Only forward edges (in base's order) within one's own tasks, so no cycle can appear.
      if (e.kind === 'depend') {
        const ids = mine.filter(alive);
        const [from, to] = [ids[e.from % Math.max(1, ids.length)], ids[e.to % Math.max(1, ids.length)]];
        if (from && to && ids.indexOf(from) < ids.indexOf(to)) next = addDependency(next, from, to);
      }
    } catch {
      // An edit that does not apply here (a duplicate dependency) is simply not made.
    }
  }
  return next;
}

describe('mergePlans properties', () => {
  const sideA = ['a', 'b', 'c'];
  const sideB = ['d', 'e', 'f'];
  const edits = fc.array(edit, { maxLength: 6 });

  it('gives the same document whichever side is mine, when the edits do not overlap', () => {
    fc.assert(
      fc.property(edits, edits, (ea, eb) => {
        const x = applyEdits(base, sideA, 'x-', ea);
        const y = applyEdits(base, sideB, 'y-', eb);
        const xy = mergePlans(base, x, y);
        const yx = mergePlans(base, y, x);
        expect(xy.conflicts).toEqual([]);
        expect(yx.conflicts).toEqual([]);
        expect(xy.doc).toEqual(yx.doc);
        // Each side's own tasks come out as that side left them.
        for (const id of sideA) expect(byId(xy.doc, id)?.description).toBe(byId(x, id)?.description);
        for (const id of sideB) expect(byId(xy.doc, id)?.instructions).toBe(byId(y, id)?.instructions);
      }),
      { numRuns: 300 },
    );
  });

  it('is the identity when one side changed nothing', () => {
    fc.assert(
      fc.property(edits, (e) => {
        const x = applyEdits(base, [...sideA, ...sideB], 'x-', e);
        expect(mergePlans(base, x, base)).toEqual({ doc: x, conflicts: [] });
        expect(mergePlans(base, base, x)).toEqual({ doc: x, conflicts: [] });
        expect(mergePlans(base, x, x).doc).toEqual(x);
      }),
      { numRuns: 200 },
    );
  });
});
