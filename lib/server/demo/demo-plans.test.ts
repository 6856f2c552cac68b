import { describe, it, expect } from 'vitest';
import { EXECUTION_TYPES, PlanDocument, contentHash, executionKind } from '../../plan'; // relative: no vitest alias config yet
import { DEMO_PLANS } from './demo-plans';

/** Task and edge counts each demo plan is meant to have (see the seed passages in demo-plans.ts). */
const EXPECTED: Record<string, { tasks: number; edges: number }> = {
  'Summarise research papers (seed 000)': { tasks: 7, edges: 8 },
  'Contaminated shipments and their contaminants (seed 001)': { tasks: 2, edges: 1 },
  'Berlin facilities, shipments, contaminants (seed 001)': { tasks: 3, edges: 2 },
  'Shipments, facilities and inspections in parallel (seed 001)': { tasks: 3, edges: 0 },
  'AgentScope seeded tasks (seed 004)': { tasks: 2, edges: 1 },
};

/** The first cycle found by a three-colour DFS over dependency edges, or null. */
function findCycle(tasks: ReadonlyArray<{ task_id: string; dependencies: string[] }>): string[] | null {
  const deps = new Map(tasks.map((t) => [t.task_id, t.dependencies]));
  const colour = new Map<string, 'grey' | 'black'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (colour.get(id) === 'black') return null;
    if (colour.get(id) === 'grey') return [...path.slice(path.indexOf(id)), id];
    colour.set(id, 'grey');
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    colour.set(id, 'black');
    return null;
  };
  for (const t of tasks) {
    const cycle = visit(t.task_id);
    if (cycle) return cycle;
  }
  return null;
}

describe('DEMO_PLANS', () => {
  it('has the intended plans, with unique titles and plan ids', () => {
    expect(DEMO_PLANS.map((p) => p.title)).toEqual(Object.keys(EXPECTED));
    const ids = DEMO_PLANS.map((p) => PlanDocument.parse(p.document).plan.task_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe.each(DEMO_PLANS.map((p) => [p.title, p] as const))('%s', (title, demo) => {
    const doc = PlanDocument.parse(demo.document);
    const tasks = doc.plan.planned_tasks;

    it('has the intended task and edge counts', () => {
      const edges = tasks.reduce((n, t) => n + t.dependencies.length, 0);
      expect({ tasks: tasks.length, edges }).toEqual(EXPECTED[title]);
    });

    it('has unique task ids and only dependencies on tasks in the same plan', () => {
      const ids = new Set(tasks.map((t) => t.task_id));
      expect(ids.size).toBe(tasks.length);
      for (const task of tasks) {
        for (const dep of task.dependencies) expect(ids, `${task.task_id} -> ${dep}`).toContain(dep);
        expect(task.dependencies, `${task.task_id} depends on itself`).not.toContain(task.task_id);
      }
    });

    it('is acyclic', () => {
      expect(findCycle(tasks)).toBeNull();
    });

    it('routes every task to one of the four kinds', () => {
      for (const task of tasks) expect(EXECUTION_TYPES).toContain(executionKind(task));
    });

    it('writes its timestamps as Python datetime.isoformat() of naive UTC', () => {
      const stamps = [doc.plan.creation_time, doc.plan.update_time, ...tasks.flatMap((t) => [t.creation_time, t.last_update_time])];
      for (const at of stamps) expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/);
    });

    it('is deterministic: parsing twice gives the same content hash', () => {
      expect(contentHash(PlanDocument.parse(demo.document))).toBe(contentHash(doc));
    });

    it('names its plan in every task main_task_id', () => {
      for (const task of tasks) expect(task.main_task_id).toBe(doc.plan.task_id);
    });
  });

  it('keeps the research plan l2_task (sub_type llm) as written, read as llm, and mixes all four kinds', () => {
    const research = DEMO_PLANS.find((p) => p.title.includes('seed 000'))!;
    const raw = research.document.plan.planned_tasks!.find((t) => t.task_id === 'summarise-findings')!;
    expect(raw.execution_type).toBe('l2_task');
    const tasks = PlanDocument.parse(research.document).plan.planned_tasks;
    const summarise = tasks.find((t) => t.task_id === 'summarise-findings')!;
    expect([summarise.execution_type, executionKind(summarise)]).toEqual(['l2_task', 'llm']);
    expect(new Set(tasks.map(executionKind))).toEqual(new Set(EXECUTION_TYPES));
  });

  it('keeps seed 001 step templates verbatim', () => {
    const chain = PlanDocument.parse(DEMO_PLANS.find((p) => p.title.startsWith('Berlin'))!.document);
    const step2 = chain.plan.planned_tasks.find((t) => t.task_id === 'step-2')!;
    expect(step2.arguments).toEqual({ shipment_ids: '${step[1].data.*.id}' });
    expect(step2.tool_id).toBe('contaminants_list');
    expect(step2.dependencies).toEqual(['step-1']);
  });
});
