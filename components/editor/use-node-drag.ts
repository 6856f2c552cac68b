'use client';

import { applyNodeChanges, useStoreApi, type Edge, type NodeChange } from '@xyflow/react';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import type { CanvasNode } from '@/lib/flow/plan-to-flow';
import { dropTarget, subgraphIdOfNode, type SubgraphBox } from '@/lib/flow/subgraph-boxes';
import { subgraphsHolding } from '@/lib/optimize/subgraph-edits';
import { useEditorStore } from './editor-context';

function sameMembers(set: ReadonlySet<string>, list: readonly string[]): boolean {
  return set.size === list.length && list.every((id) => set.has(id));
}

/** The expanded subgraph boxes among the canvas nodes, for dropping tasks into. */
function expandedBoxes(nodes: readonly CanvasNode[]): SubgraphBox[] {
  const boxes: SubgraphBox[] = [];
  for (const node of nodes) {
    if (node.type !== 'subgraph' || node.data.collapsed) continue;
    boxes.push({ subgraphId: node.data.subgraphId, x: node.position.x, y: node.position.y, width: node.width ?? 0, height: node.height ?? 0, taskCount: node.data.taskCount });
  }
  return boxes;
}

/**
 * Selecting and dragging nodes. While a node is dragged its positions go straight into React
 * Flow's own store, not through the plan: re-deriving the nodes on every pointer event is what
 * made dragging on large plans slow. The drag lands in the plan, as one undo step, when it ends;
 * dropped inside another subgraph's box it moves there, and a refused move puts the tasks back.
 * `nodes` are the plan's nodes, `given` those React Flow was given (the view window's).
 */
export function useNodeDrag({ nodes, given, setDragging }: { nodes: CanvasNode[]; given: CanvasNode[]; setDragging: (on: boolean) => void }) {
  const store = useEditorStore();
  const rfStore = useStoreApi<CanvasNode, Edge>();
  const pendingDrag = useRef<Record<string, { x: number; y: number }> | null>(null);
  const nodesRef = useRef(nodes);
  const givenRef = useRef(given);
  useLayoutEffect(() => {
    nodesRef.current = nodes;
    givenRef.current = given;
  });

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      const state = store.getState();
      let selection: Set<string> | null = null;
      const moves: NodeChange<CanvasNode>[] = [];
      for (const change of changes) {
        if ('id' in change && subgraphIdOfNode(change.id) !== null) continue;
        if (change.type === 'position' && change.position && change.dragging) {
          pendingDrag.current ??= {};
          pendingDrag.current[change.id] = { x: Math.round(change.position.x), y: Math.round(change.position.y) };
          moves.push(change);
        } else if (change.type === 'select') {
          selection ??= new Set(state.selectedTaskIds);
          if (change.selected) selection.add(change.id);
          else selection.delete(change.id);
        }
      }
      if (moves.length) {
        const flow = rfStore.getState();
        // A moved node carries its measured size along: React Flow drops the handle
        // positions of a new node object without one, and would then unmount and measure
        // its edges again on every frame of the drag.
        const moved = applyNodeChanges(moves, flow.nodes).map((node) =>
          node.measured || !pendingDrag.current?.[node.id] ? node : { ...node, measured: flow.nodeLookup.get(node.id)?.measured },
        );
        flow.setNodes(moved);
      }
      // React Flow reports an edge selected (Enter on a focused edge, a click) before the
      // nodes it unselects; selecting "no tasks" again then would unselect that edge.
      if (selection && !sameMembers(selection, store.getState().selectedTaskIds)) state.select([...selection]);
    },
    [store, rfStore],
  );

  const onNodeDragStart = useCallback(() => setDragging(true), [setDragging]);
  const onNodeDragStop = useCallback(
    (_: unknown, node: CanvasNode) => {
      const drag = pendingDrag.current;
      pendingDrag.current = null;
      setDragging(false);
      if (!drag) return;
      const state = store.getState();
      const own = subgraphsHolding(state.doc.subgraphs, [node.id])[0];
      const at = drag[node.id];
      const target = own && at ? dropTarget(expandedBoxes(nodesRef.current), { x: at.x + NODE_SIZE.width / 2, y: at.y + NODE_SIZE.height / 2 }, own) : null;
      if (!target) {
        state.moveTasks(drag);
        return;
      }
      if (!state.moveToSubgraph(Object.keys(drag), target, drag)) rfStore.getState().setNodes(givenRef.current);
    },
    [store, rfStore, setDragging],
  );

  return { onNodesChange, onNodeDragStart, onNodeDragStop };
}
