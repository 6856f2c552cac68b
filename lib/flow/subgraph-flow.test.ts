import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { createFlowMapper, type FlowInputs } from './plan-to-flow';
import { dropTarget, groupNodeId, subgraphBoxes, subgraphIdOfNode } from './subgraph-boxes';

const doc = PlanDocument.parse({
  plan: {
    planned_tasks: [
      { task_id: 'a' },
      { task_id: 'b', dependencies: ['a'] },
      { task_id: 'c', dependencies: ['b'] },
      { task_id: 'd', dependencies: ['a', 'b'] },
    ],
  },
  subgraphs: [
    { subgraph_id: 'sg-1', task_ids: ['a', 'b'] },
    { subgraph_id: 'sg-2', task_ids: ['c'], depends_on: ['sg-1'] },
    { subgraph_id: 'sg-3', task_ids: ['d'], depends_on: ['sg-1'] },
  ],
  view: { positions: { a: { x: 0, y: 0 }, b: { x: 300, y: 0 }, c: { x: 600, y: 0 }, d: { x: 600, y: 200 } } },
});

function inputs(collapsed: string[]): FlowInputs {
  return {
    tasks: doc.plan.planned_tasks,
    positions: doc.view.positions,
    selectedTaskIds: new Set(),
    selectedEdgeId: null,
    issuesByTask: new Map(),
    highlighted: new Set(),
    readOnly: false,
    subgraphs: doc.subgraphs,
    collapsed: new Set(collapsed),
  };
}

describe('subgraphs on the canvas', () => {
  it('draws each subgraph as a box around its tasks, beneath them', () => {
    const nodes = createFlowMapper().nodes(inputs([]));
    expect(nodes.map((n) => n.id)).toEqual([groupNodeId('sg-1'), groupNodeId('sg-2'), groupNodeId('sg-3'), 'a', 'b', 'c', 'd']);
    const box = nodes[0]!;
    expect(box.type).toBe('subgraph');
    expect(box.position.x).toBeLessThan(0);
    expect((box.width ?? 0) + box.position.x).toBeGreaterThan(300);
    expect(box.ariaLabel).toBe('Subgraph sg-1, 2 tasks');
    expect(subgraphIdOfNode(box.id)).toBe('sg-1');
    expect(subgraphIdOfNode('a')).toBeNull();
  });

  it('keeps an unchanged subgraph node object from one render to the next', () => {
    const mapper = createFlowMapper();
    const first = mapper.nodes(inputs([]));
    const second = mapper.nodes({ ...inputs([]), selectedTaskIds: new Set(['c']) });
    expect(second[0]).toBe(first[0]);
    expect(mapper.nodes(inputs(['sg-1']))[0]).not.toBe(first[0]);
  });

  it('collapses a subgraph to one node with subgraph-level edges, once each', () => {
    const mapper = createFlowMapper();
    const nodes = mapper.nodes(inputs(['sg-1']));
    expect(nodes.map((n) => n.id)).toEqual([groupNodeId('sg-1'), groupNodeId('sg-2'), groupNodeId('sg-3'), 'c', 'd']);
    expect(nodes[0]!.ariaLabel).toBe('Subgraph sg-1, 2 tasks, collapsed');
    const edges = mapper.edges(inputs(['sg-1']));
    // a → b is inside sg-1; a → d and b → d become one edge.
    expect(edges.map((e) => [e.source, e.target])).toEqual([
      [groupNodeId('sg-1'), 'c'],
      [groupNodeId('sg-1'), 'd'],
    ]);
    expect(edges.every((e) => e.deletable === false && e.reconnectable === false)).toBe(true);
  });

  it('builds only the edges between the nodes a big canvas is given, task or collapsed subgraph', () => {
    const mapper = createFlowMapper();
    const pairs = (edges: ReturnType<typeof mapper.edges>) => edges.map((e) => [e.source, e.target]);
    expect(pairs(mapper.edges(inputs([]), new Set(['a', 'b', 'c'])))).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(pairs(mapper.edges(inputs([]), new Set(['c', 'd'])))).toEqual([]);
    expect(pairs(mapper.edges(inputs(['sg-1']), new Set([groupNodeId('sg-1'), 'd'])))).toEqual([[groupNodeId('sg-1'), 'd']]);
    // An edge given again is the same object: React Flow is not told of a change.
    const all = mapper.edges(inputs([]));
    expect(mapper.edges(inputs([]), new Set(['a', 'b']))[0]).toBe(all[0]);
  });

  it('draws a dependency once the task it names is in the plan, and not before', () => {
    const mapper = createFlowMapper();
    const [a, ...rest] = doc.plan.planned_tasks;
    const pairs = (edges: ReturnType<typeof mapper.edges>) => edges.map((e) => [e.source, e.target]);
    const without = { ...inputs([]), subgraphs: [], tasks: rest };
    expect(pairs(mapper.edges(without))).toEqual([
      ['b', 'c'],
      ['b', 'd'],
    ]);
    // An edit makes a new task list: the edges follow it.
    expect(pairs(mapper.edges({ ...without, tasks: [a, ...rest] }))).toEqual([
      ['a', 'b'],
      ['b', 'c'],
      ['a', 'd'],
      ['b', 'd'],
    ]);
  });

  it('finds the subgraph a task is dropped into', () => {
    const boxes = subgraphBoxes(doc.subgraphs, (id) => doc.view.positions[id]);
    expect(dropTarget(boxes, { x: 700, y: 230 }, 'sg-2')).toBe('sg-3');
    expect(dropTarget(boxes, { x: 700, y: 30 }, 'sg-2')).toBeNull();
    expect(dropTarget(boxes, { x: 5_000, y: 5_000 }, 'sg-2')).toBeNull();
  });
});
