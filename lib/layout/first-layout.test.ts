import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { NODE_SIZE, type LayoutTask } from './elk-graph';
import { FIRST_LAYOUT_MAX_TASKS, layOutTasks, needsFirstLayout, withFirstLayout } from './first-layout';
import { overlaps } from './overlap-test-support';

// A plan that arrives without positions is laid out once where it is stored, exactly as the
// editor would lay it out on opening, with the same call. Positions someone sent, even for
// only some of the tasks, are kept as sent.

const chain = (count: number, view?: object) =>
  PlanDocument.parse({
    plan: { planned_tasks: Array.from({ length: count }, (_, i) => ({ task_id: `t${i}`, execution_type: 'llm', dependencies: i ? [`t${Math.floor((i - 1) / 2)}`] : [] })) },
    ...(view ? { view } : {}),
  });
const layOut = async (tasks: LayoutTask[]) => layOutTasks(new ELK(), tasks);

describe('the first layout of a new plan', () => {
  it('is wanted when no task has a position, and not for an empty plan, one with positions or one over the bound', () => {
    expect(needsFirstLayout(chain(3))).toBe(true);
    expect(needsFirstLayout(chain(3, { positions: { t0: { x: 0, y: 0 }, t1: { x: 300, y: 0 } } }))).toBe(false);
    expect(needsFirstLayout(chain(2, { positions: { t0: { x: 0, y: 0 }, t1: { x: 300, y: 0 } } }))).toBe(false);
    expect(needsFirstLayout(chain(0))).toBe(false);
    expect(needsFirstLayout(chain(FIRST_LAYOUT_MAX_TASKS + 1))).toBe(false);
  });

  it("places every task where the editor's layout does, left to right along the dependencies, none overlapping", async () => {
    const laid = await withFirstLayout(layOut, chain(12));
    const positions = laid.view.positions;
    expect(positions).toEqual(await layOutTasks(new ELK(), laid.plan.planned_tasks));
    expect(Object.keys(positions).sort()).toEqual(laid.plan.planned_tasks.map((t) => t.task_id).sort());
    for (const task of laid.plan.planned_tasks) for (const dep of task.dependencies) expect(positions[dep]!.x).toBeLessThan(positions[task.task_id]!.x);
    expect(overlaps(positions, NODE_SIZE)).toEqual([]);
    expect(laid.view.collapsed).toEqual([]);
  });

  it('keeps the positions a plan came with, all or some', async () => {
    const placed = chain(2, { positions: { t0: { x: 5, y: 6 }, t1: { x: 700, y: 6 } } });
    expect(await withFirstLayout(layOut, placed)).toBe(placed);
    const partial = chain(3, { positions: { t0: { x: 5, y: 6 } } });
    expect(await withFirstLayout(layOut, partial)).toBe(partial);
  });

  it('stores no positions when the layout fails: the editor then lays the plan out and says why', async () => {
    const document = chain(3);
    expect(await withFirstLayout(() => Promise.reject(new Error('no layout here')), document)).toBe(document);
  });
});
