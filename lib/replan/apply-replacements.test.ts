import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dagArb } from '@/lib/graph/test-arbitraries';
import { PlanDocument, PlannerTask, type PlanDocumentInput, type PlannerTaskInput } from '@/lib/plan';
import { validatePlan } from '@/lib/validate';
import { applyReplacements, ReplanError } from './apply-replacements';
import type { Replacement } from './replan-types';

// a → b → d, a → c → d, and e on its own; b is the task usually replaced.
const tasks: PlannerTaskInput[] = [
  { task_id: 'a', description: 'Fetch', execution_type: 'tool', tool_id: 'shipments_list' },
  { task_id: 'b', description: 'Filter', execution_type: 'llm', dependencies: ['a'], mark_replan: true },
  { task_id: 'c', description: 'Enrich', execution_type: 'tool', tool_id: 'facilities_list', dependencies: ['a'] },
  { task_id: 'd', description: 'Report', execution_type: 'agent', dependencies: ['b', 'c'] },
  { task_id: 'e', description: 'Unrelated', execution_type: 'llm' },
];
const doc = (extra: Partial<PlanDocumentInput> = {}, planned: PlannerTaskInput[] = tasks) => PlanDocument.parse({ plan: { planned_tasks: planned }, ...extra });
const task = (input: PlannerTaskInput) => PlannerTask.parse(input);
const replacing = (replaces: string, ...list: PlannerTaskInput[]): Replacement => ({ replaces, tasks: list.map(task) });

const byId = (d: PlanDocument) => new Map(d.plan.planned_tasks.map((t) => [t.task_id, t]));
const edges = (d: PlanDocument) => d.plan.planned_tasks.flatMap((t) => t.dependencies.map((dep) => `${dep}→${t.task_id}`)).sort();

function refusal(fn: () => unknown): ReplanError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ReplanError);
    return error as ReplanError;
  }
  throw new Error('expected a ReplanError');
}

describe('applyReplacements', () => {
  it('swaps in a one-task replacement: new id, main_task_id, both edges kept, every other task the same object', () => {
    const before = doc();
    const after = applyReplacements(before, [replacing('b', { task_id: 'b-r1', description: 'Filter better', execution_type: 'llm' })], ['b']);
    const old = byId(before);
    const next = byId(after);
    expect(after.plan.planned_tasks.map((t) => t.task_id)).toEqual(['a', 'b-r1', 'c', 'd', 'e']);
    expect(next.get('b-r1')).toMatchObject({ main_task_id: 'b', mark_replan: false, dependencies: ['a'], description: 'Filter better' });
    expect(next.get('d')!.dependencies).toEqual(['b-r1', 'c']);
    for (const id of ['a', 'c', 'e']) expect(next.get(id)).toBe(old.get(id));
    // The dependent differs from before in the renamed dependency and nothing else.
    expect({ ...next.get('d'), dependencies: old.get('d')!.dependencies }).toEqual(old.get('d'));
    expect(edges(after)).toEqual(['a→b-r1', 'a→c', 'b-r1→d', 'c→d']);
  });

  it('keeps every outside edge when a chain replaces a task: entries take its dependencies, dependents wait for the exits', () => {
    const after = applyReplacements(
      doc(),
      [
        replacing(
          'b',
          // Listed out of order on purpose: the plan gets them dependencies first.
          { task_id: 'b3', execution_type: 'llm', dependencies: ['b2'] },
          { task_id: 'b1', execution_type: 'tool', tool_id: 'shipments_list' },
          { task_id: 'b2', execution_type: 'llm', dependencies: ['b1', 'e'] },
        ),
      ],
      ['b'],
    );
    expect(after.plan.planned_tasks.map((t) => t.task_id)).toEqual(['a', 'b1', 'b2', 'b3', 'c', 'd', 'e']);
    expect(edges(after)).toEqual(['a→b1', 'a→c', 'b1→b2', 'b2→b3', 'b3→d', 'c→d', 'e→b2']);
    expect(after.plan.planned_tasks.filter((t) => t.main_task_id === 'b').map((t) => t.task_id)).toEqual(['b1', 'b2', 'b3']);
    expect(validatePlan(after.plan).issues.filter((i) => i.code === 'cycle' || i.code === 'missing_dependency')).toEqual([]);
  });

  it('wires parallel exits of a replacement into every dependent, in the place of the old dependency', () => {
    const after = applyReplacements(doc(), [replacing('b', { task_id: 'x', execution_type: 'llm' }, { task_id: 'y', execution_type: 'llm' })], ['b']);
    expect(byId(after).get('d')!.dependencies).toEqual(['x', 'y', 'c']);
    expect(byId(after).get('x')!.dependencies).toEqual(['a']);
    expect(byId(after).get('y')!.dependencies).toEqual(['a']);
  });

  it('applies only the accepted replacements; a rejected one leaves its task as it was', () => {
    const before = doc();
    const proposal = [replacing('b', { task_id: 'b-r1', execution_type: 'llm' }), replacing('c', { task_id: 'c-r1', execution_type: 'tool' })];
    const after = applyReplacements(before, proposal, ['c']);
    expect(byId(after).get('b')).toBe(byId(before).get('b'));
    expect(byId(after).get('b')!.mark_replan).toBe(true);
    expect(byId(after).get('d')!.dependencies).toEqual(['b', 'c-r1']);
    expect(applyReplacements(before, proposal, [])).toBe(before);
  });

  it('rewires between two accepted replacements, whichever names the other', () => {
    const after = applyReplacements(
      doc(),
      [replacing('d', { task_id: 'd-r1', execution_type: 'agent' }), replacing('b', { task_id: 'b-r1', execution_type: 'llm' }, { task_id: 'b-r2', execution_type: 'llm', dependencies: ['b-r1', 'c'] })],
      ['b', 'd'],
    );
    expect(byId(after).get('d-r1')).toMatchObject({ main_task_id: 'd', dependencies: ['b-r2', 'c'] });
    expect(byId(after).has('b')).toBe(false);
    expect(byId(after).has('d')).toBe(false);
  });

  it('does not change the document it is given', () => {
    const before = doc({ view: { positions: { b: { x: 1, y: 2 } } } });
    const copy = structuredClone(before);
    applyReplacements(before, [replacing('b', { task_id: 'b-r1', execution_type: 'llm' })], ['b']);
    expect(before).toEqual(copy);
  });

  it('refuses a replacement that would create a cycle, naming the cycle', () => {
    const error = refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'b-r1', execution_type: 'llm', dependencies: ['d'] })], ['b']));
    expect(error.code).toBe('cycle');
    expect(error.message).toBe('The replacement for "b" would create a cycle: b-r1 → d → b-r1');
  });

  it('refuses a replacement task that depends on itself', () => {
    const error = refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'b-r1', dependencies: ['b-r1'] })], ['b']));
    expect([error.code, error.message]).toEqual(['cycle', 'Task "b-r1" in the replacement for "b" depends on itself']);
  });

  it('refuses ids the plan or another replacement already uses', () => {
    expect(refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'c' })], ['b'])).message).toBe(
      'Task id "c" in the replacement for "b" is already used in the plan; a replacement needs new ids',
    );
    expect(refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'b' })], ['b'])).code).toBe('id_clash');
    const twice = refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'n' }), replacing('c', { task_id: 'n' })], ['b', 'c']));
    expect([twice.code, twice.message]).toEqual(['id_clash', 'Task id "n" in the replacement for "c" is used in the replacement for "b" too']);
    expect(refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'n' }, { task_id: 'n' })], ['b'])).message).toContain('twice in that replacement');
  });

  it('refuses dependencies a replacement may not name', () => {
    const own = refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'b-r1', dependencies: ['b'] })], ['b']));
    expect([own.code, own.message]).toEqual(['unknown_dependency', 'Task "b-r1" depends on "b", the task it replaces; the replacement takes over that task\'s dependencies by itself']);
    expect(refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'b-r1', dependencies: ['ghost'] })], ['b'])).message).toBe(
      'Task "b-r1" in the replacement for "b" depends on "ghost", which is not in the plan',
    );
    const across = refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'b-r1' }), replacing('d', { task_id: 'd-r1', dependencies: ['b-r1'] })], ['b', 'd']));
    expect(across.message).toContain('of another replacement; name the task that one replaces instead');
  });

  it('refuses accepting what was not proposed, a task the plan lacks, and two replacements for one task', () => {
    expect(refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'n' })], ['c'])).message).toBe('No replacement for task "c" was proposed');
    expect(refusal(() => applyReplacements(doc(), [replacing('zz', { task_id: 'n' })], ['zz'])).code).toBe('unknown_task');
    expect(refusal(() => applyReplacements(doc(), [replacing('b', { task_id: 'n' }), replacing('b', { task_id: 'm' })], ['b'])).code).toBe('duplicate_replacement');
    const twice = doc({}, [...tasks, { task_id: 'b', description: 'Filter again', execution_type: 'llm' }]);
    expect(refusal(() => applyReplacements(twice, [replacing('b', { task_id: 'n' })], ['b'])).message).toBe(
      'Task id "b" is used by 2 tasks in the plan; make the ids unique before replanning it',
    );
  });

  it('drops run-time state a planner wrote on a replacement', () => {
    const after = applyReplacements(doc(), [replacing('b', { task_id: 'n', status: 'completed', output: { rows: 3 } })], ['b']);
    expect(byId(after).get('n')).toMatchObject({ status: 'pending', output: {} });
  });

  it("puts the replacement where the task was on the canvas, one row per chain step, and drops the old position", () => {
    const before = doc({ view: { positions: { a: { x: 0, y: 0 }, b: { x: 100, y: 200 } }, collapsed: [] } });
    const after = applyReplacements(
      before,
      [replacing('b', { task_id: 'b1' }, { task_id: 'b2', dependencies: ['b1'] }, { task_id: 'b3', dependencies: ['b1'] })],
      ['b'],
    );
    expect(after.view.positions).toEqual({ a: { x: 0, y: 0 }, b1: { x: 100, y: 200 }, b2: { x: 100, y: 310 }, b3: { x: 320, y: 310 } });
  });

  it("puts the new tasks in the replaced task's subgraph and derives depends_on again", () => {
    const grouped = doc({
      subgraphs: [
        { subgraph_id: 'sg-1', task_ids: ['a', 'b'], depends_on: [] },
        { subgraph_id: 'sg-2', task_ids: ['c', 'd'], depends_on: ['sg-1'] },
        { subgraph_id: 'sg-3', task_ids: ['e'], depends_on: [] },
      ],
    });
    const after = applyReplacements(grouped, [replacing('b', { task_id: 'b2', dependencies: ['b1', 'e'] }, { task_id: 'b1' })], ['b']);
    expect(after.subgraphs).toEqual([
      { subgraph_id: 'sg-1', task_ids: ['a', 'b1', 'b2'], depends_on: ['sg-3'] },
      { subgraph_id: 'sg-2', task_ids: ['c', 'd'], depends_on: ['sg-1'] },
      { subgraph_id: 'sg-3', task_ids: ['e'], depends_on: [] },
    ]);
    expect(validatePlan(after.plan, undefined, after.subgraphs).issues.filter((i) => i.code.startsWith('subgraph'))).toEqual([]);
  });

  it('refuses a replacement that makes subgraphs wait on each other', () => {
    const grouped = doc({
      subgraphs: [
        { subgraph_id: 'sg-1', task_ids: ['a', 'b'], depends_on: [] },
        { subgraph_id: 'sg-2', task_ids: ['c', 'd', 'e'], depends_on: ['sg-1'] },
      ],
    });
    // c (in sg-2) needs a (sg-1); the new b-r1 (sg-1) would need c: no task cycle, but a subgraph one.
    const error = refusal(() => applyReplacements(grouped, [replacing('b', { task_id: 'b-r1', dependencies: ['c'] })], ['b']));
    expect(error.code).toBe('subgraph_cycle');
    expect(error.message).toMatch(/^The replacement breaks the plan's subgraphs: Subgraphs wait on each other: sg-\d → sg-\d → sg-\d/);
  });

  it('re-points step templates that named the replaced task at its replacement', () => {
    const steps = doc({}, [
      { task_id: 'step-0', execution_type: 'tool', tool_id: 'shipments_list', arguments: { limit: 100 } },
      { task_id: 'step-1', execution_type: 'tool', tool_id: 'contaminants_list', dependencies: ['step-0'], arguments: { shipment_ids: '${step[0].data.*.id}', note: 'plain' } },
    ]);
    const after = applyReplacements(steps, [replacing('step-0', { task_id: 'step-2', execution_type: 'tool', tool_id: 'shipments_list' })], ['step-0']);
    expect(byId(after).get('step-1')).toMatchObject({ dependencies: ['step-2'], arguments: { shipment_ids: '${step[2].data.*.id}', note: 'plain' } });
    expect(validatePlan(after.plan).issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it("re-points a replacement's templates that named another replaced task, and leaves its own alone", () => {
    const steps = doc({}, [
      { task_id: 'step-0', execution_type: 'tool', tool_id: 'shipments_list' },
      { task_id: 'step-1', execution_type: 'tool', tool_id: 'contaminants_list', dependencies: ['step-0'], arguments: { shipment_ids: '${step[0].data.*.id}' } },
    ]);
    const after = applyReplacements(
      steps,
      [
        replacing('step-0', { task_id: 'step-2', execution_type: 'tool', tool_id: 'shipments_list' }),
        replacing(
          'step-1',
          { task_id: 'step-3', execution_type: 'tool', tool_id: 'contaminants_list', arguments: { shipment_ids: '${step[0].data.*.id}' } },
          { task_id: 'step-4', execution_type: 'tool', tool_id: 'inspections_list', dependencies: ['step-3'], arguments: { facility_id: '${step[3].data.*.facility_id}' } },
        ),
      ],
      ['step-0', 'step-1'],
    );
    expect(after.plan.planned_tasks.map((t) => [t.task_id, t.dependencies, t.arguments])).toEqual([
      ['step-2', [], {}],
      ['step-3', ['step-2'], { shipment_ids: '${step[2].data.*.id}' }],
      ['step-4', ['step-3'], { facility_id: '${step[3].data.*.facility_id}' }],
    ]);
    expect(validatePlan(after.plan).issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('re-points positional step templates when a chain shifts the tasks after it', () => {
    const positional = doc({}, [
      { task_id: 'fetch', execution_type: 'tool', tool_id: 'shipments_list' },
      { task_id: 'other', execution_type: 'tool', tool_id: 'facilities_list' },
      { task_id: 'use', execution_type: 'tool', tool_id: 'contaminants_list', dependencies: ['fetch', 'other'], arguments: { a: '${step[0].data}', b: '${step[1].data}' } },
    ]);
    const after = applyReplacements(positional, [replacing('fetch', { task_id: 'f1' }, { task_id: 'f2', dependencies: ['f1'] })], ['fetch']);
    expect(after.plan.planned_tasks.map((t) => t.task_id)).toEqual(['f1', 'f2', 'other', 'use']);
    expect(byId(after).get('use')!.arguments).toEqual({ a: '${step[1].data}', b: '${step[2].data}' });
  });

  it('on random DAGs, replacing any tasks by chains keeps exactly the outside edges, rewired, and no cycle', () => {
    fc.assert(
      fc.property(
        dagArb(25).filter((g) => g.n > 0),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 25, maxLength: 25 }),
        (graph, lengths) => {
          const before = doc({}, graph.tasks.map((t) => ({ ...t, dependencies: [...t.dependencies] })));
          // lengths[i] > 0: task i is replaced by a chain of that many tasks.
          const chain = (id: string, i: number) => Array.from({ length: lengths[i] }, (_, k) => `${id}~${k}`);
          const replaced = graph.tasks.map((t, i) => ({ id: t.task_id, chain: chain(t.task_id, i) })).filter((r) => r.chain.length > 0);
          const proposal = replaced.map((r) => replacing(r.id, ...r.chain.map((id, k) => ({ task_id: id, dependencies: k ? [r.chain[k - 1]] : [] }))));
          const after = applyReplacements(before, proposal, replaced.map((r) => r.id));

          const chains = new Map(replaced.map((r) => [r.id, r.chain]));
          const entry = (id: string) => chains.get(id)?.[0] ?? id;
          const exit = (id: string) => chains.get(id)?.at(-1) ?? id;
          const expected = [
            ...graph.edges.map(([a, b]) => `${exit(graph.tasks[a].task_id)}→${entry(graph.tasks[b].task_id)}`),
            ...replaced.flatMap((r) => r.chain.slice(1).map((id, k) => `${r.chain[k]}→${id}`)),
          ].sort();
          expect(edges(after)).toEqual(expected);
          const old = byId(before);
          for (const t of after.plan.planned_tasks) {
            const original = old.get(t.task_id);
            if (original) expect({ ...t, dependencies: original.dependencies }).toEqual(original);
            else expect(chains.get(t.main_task_id ?? '')).toContain(t.task_id);
          }
        },
      ),
    );
  });
});
