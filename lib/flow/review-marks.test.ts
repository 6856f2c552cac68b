import { describe, expect, it } from 'vitest';
import { PlanDocument, diffPlans, taskMarks } from '@/lib/plan';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { createFlowMapper } from './plan-to-flow';
import { REMOVED_NODE_PREFIX, removedTaskNodes, reviewMarksData, type RemovedTask } from './review-marks';

const before = PlanDocument.parse({
  plan: {
    planned_tasks: [
      { task_id: 'fetch', description: 'Fetch shipments' },
      { task_id: 'summarise', description: 'Summarise', dependencies: ['fetch'] },
      { task_id: 'archive', dependencies: ['fetch'] },
    ],
  },
  view: { positions: { fetch: { x: 0, y: 0 }, summarise: { x: 300, y: 0 }, archive: { x: 300, y: 200 } } },
});
const after = PlanDocument.parse({
  plan: {
    planned_tasks: [
      before.plan.planned_tasks[0],
      { task_id: 'summarise_v2', main_task_id: 'summarise', description: 'Summarise per facility', dependencies: ['fetch'] },
      { task_id: 'notify', description: 'Notify', dependencies: ['summarise_v2'] },
    ],
  },
  view: { positions: { fetch: { x: 0, y: 0 }, summarise_v2: { x: 300, y: 0 }, notify: { x: 600, y: 0 } } },
});

describe('review marks', () => {
  it('names each removed task, what replaced it and where the base revision drew it', () => {
    const data = reviewMarksData(diffPlans(before, after), before.view.positions);
    expect(data.marks).toEqual({ summarise_v2: { kind: 'replaces', replaces: 'summarise' }, notify: { kind: 'added' } });
    expect(data.removed).toEqual([
      { task_id: 'summarise', label: 'Summarise', replacedBy: ['summarise_v2'], position: { x: 300, y: 0 } },
      { task_id: 'archive', label: 'archive', replacedBy: [], position: { x: 300, y: 200 } },
    ]);
    // Plain data: it crosses from a server component to the editor unchanged.
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('says a task mark in the node accessible name', () => {
    const nodes = createFlowMapper().nodes({
      tasks: after.plan.planned_tasks,
      positions: after.view.positions,
      selectedTaskIds: new Set(),
      selectedEdgeId: null,
      issuesByTask: new Map(),
      highlighted: new Set(),
      readOnly: true,
      subgraphs: [],
      collapsed: new Set(),
      reviewMarks: taskMarks(diffPlans(before, after)),
    });
    expect(nodes.map((n) => n.ariaLabel)).toEqual(['Task Fetch shipments', 'Task Summarise per facility, replaces summarise', 'Task Notify, added']);
  });

  it('draws a removed task where the base revision had it, unless a task now stands there', () => {
    const removed = reviewMarksData(diffPlans(before, after), before.view.positions).removed;
    const nodes = removedTaskNodes(removed, after.plan.planned_tasks, { ...before.view.positions, ...after.view.positions });
    // `summarise` was at (300, 0), where summarise_v2 is now: it goes beneath the plan instead.
    // `archive` keeps its spot, though the view (kept from the base) still holds its position.
    expect(nodes.map((n) => [n.id, n.position])).toEqual([
      [`${REMOVED_NODE_PREFIX}archive`, { x: 300, y: 200 }],
      [`${REMOVED_NODE_PREFIX}summarise`, { x: 0, y: 200 + NODE_SIZE.height + 80 }],
    ]);
    expect(nodes.map((n) => n.ariaLabel)).toEqual(['Removed task archive', 'Removed task Summarise (summarise), replaced by summarise_v2']);
    expect(nodes.every((n) => n.draggable === false && n.selectable === false && n.connectable === false && n.deletable === false)).toBe(true);
  });

  it('puts removed tasks without a saved position in rows beneath the plan, none on another', () => {
    const removed: RemovedTask[] = Array.from({ length: 10 }, (_, i) => ({ task_id: `r${i}`, label: `r${i}`, replacedBy: [], position: null }));
    const nodes = removedTaskNodes(removed, [{ task_id: 'a' }, { task_id: 'b' }], { a: { x: 100, y: 50 }, b: { x: 100, y: 400 } });
    const top = 400 + NODE_SIZE.height + 80;
    expect(nodes[0].position).toEqual({ x: 100, y: top });
    expect(nodes[8].position).toEqual({ x: 100, y: top + NODE_SIZE.height + 40 });
    const boxes = [{ x: 100, y: 50 }, { x: 100, y: 400 }, ...nodes.map((n) => n.position)];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(Math.abs(a.x - b.x) >= NODE_SIZE.width || Math.abs(a.y - b.y) >= NODE_SIZE.height).toBe(true);
    }
    expect(removedTaskNodes([], [{ task_id: 'a' }], { a: { x: 0, y: 0 } })).toEqual([]);
  });

  it('keeps clear of tasks still waiting for their first layout, where the canvas draws them meanwhile', () => {
    const removed: RemovedTask[] = [{ task_id: 'gone', label: 'gone', replacedBy: [], position: { x: 280, y: 0 } }];
    // `b` has no saved position yet: it is drawn second in the first row, at (280, 0).
    const nodes = removedTaskNodes(removed, [{ task_id: 'a' }, { task_id: 'b' }], { a: { x: 0, y: 0 } });
    expect(nodes[0].position).toEqual({ x: 0, y: NODE_SIZE.height + 80 });
  });
});
