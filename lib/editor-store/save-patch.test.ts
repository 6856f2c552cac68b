import { describe, expect, it } from 'vitest';
import { PlanDocument, addTask, contentHash, removeTasks, setPositions, updateTask } from '@/lib/plan';
import { planPatch } from './save-patch';

const doc = PlanDocument.parse({
  plan: {
    task_id: 'job',
    creation_time: '2026-01-01T00:00:00.000Z',
    update_time: '2026-01-01T00:00:00.000Z',
    planned_tasks: ['a', 'b', 'c'].map((id, i) => ({
      task_id: id,
      execution_type: 'tool',
      dependencies: i ? ['a'] : [],
      creation_time: '2026-01-01T00:00:00.000Z',
      last_update_time: '2026-01-01T00:00:00.000Z',
    })),
  },
  view: { positions: { a: { x: 0, y: 0 }, b: { x: 0, y: 100 } } },
});

/** What the server does with a patch (plan-service's patchPlan), to check the patch rebuilds the document. */
function apply(base: PlanDocument, patch: NonNullable<ReturnType<typeof planPatch>>): PlanDocument {
  const removed = new Set(patch.remove_tasks ?? []);
  const tasks = base.plan.planned_tasks.filter((t) => !removed.has(t.task_id));
  for (const task of patch.upsert_tasks ?? []) {
    const at = tasks.findIndex((t) => t.task_id === task.task_id);
    if (at >= 0) tasks[at] = task as never;
    else tasks.push(task as never);
  }
  const positions = { ...base.view.positions };
  for (const [key, p] of Object.entries(patch.positions ?? {})) {
    if (p) positions[key] = p;
    else delete positions[key];
  }
  return PlanDocument.parse({ plan: { ...base.plan, ...patch.plan_fields, planned_tasks: tasks }, job: patch.job ?? base.job, subgraphs: patch.subgraphs ?? base.subgraphs, view: { positions, collapsed: patch.collapsed ?? [] } });
}

describe('planPatch', () => {
  it('sends one task for a one-task edit', () => {
    const edited = updateTask(doc, 'b', { description: 'B' });
    const patch = planPatch(doc, edited, [])!;
    expect(patch.upsert_tasks?.map((t) => t.task_id)).toEqual(['b']);
    expect(patch.remove_tasks).toBeUndefined();
    expect(patch.positions).toBeUndefined();
    expect(contentHash(apply(doc, patch))).toBe(contentHash(edited));
  });

  it('sends removals, additions and moved positions, and rebuilds the same document', () => {
    let edited = removeTasks(doc, ['b']);
    edited = addTask(edited, { task_id: 'd', execution_type: 'llm', creation_time: '2026-01-01T00:00:00.000Z', last_update_time: '2026-01-01T00:00:00.000Z' }, { x: 5, y: 5 });
    edited = setPositions(edited, { a: { x: 9, y: 9 } });
    const patch = planPatch(doc, edited, [])!;
    expect(patch.remove_tasks).toEqual(['b']);
    expect(patch.upsert_tasks?.map((t) => t.task_id)).toContain('d');
    expect(patch.positions).toMatchObject({ a: { x: 9, y: 9 } });
    const rebuilt = apply(doc, patch);
    expect(contentHash(rebuilt)).toBe(contentHash(edited));
    expect(rebuilt.view.positions).toEqual(edited.view.positions);
  });

  it('gives up on a reordered plan, which is saved whole', () => {
    const reordered = { ...doc, plan: { ...doc.plan, planned_tasks: [...doc.plan.planned_tasks].reverse() } };
    expect(planPatch(doc, reordered, [])).toBeNull();
  });
});
