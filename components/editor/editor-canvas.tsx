'use client';

import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  applyNodeChanges,
  useReactFlow,
  useStoreApi,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnMoveEnd,
} from '@xyflow/react';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { checkConnection } from '@/lib/flow/connection-check';
import { NODE_SIZE } from '@/lib/flow/elk-graph';
import { createFlowMapper, type TaskNode } from '@/lib/flow/plan-to-flow';
import { buildGraphIndex } from '@/lib/graph';
import { useEditor, useEditorStore } from './editor-context';
import { nodeTypes } from './task-node';
import { useValidation } from './use-validation';

const EMPTY: ReadonlySet<string> = new Set();
// Module-level so their identity never changes: React Flow copies changed props into its
// store, and a fresh object on every render would mean extra store updates per drag frame.
const DEFAULT_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } };
const FIT_VIEW_OPTIONS = { padding: 0.2 };
const PRO_OPTIONS = { hideAttribution: true };
const DELETE_KEYS = ['Delete', 'Backspace'];
const MINIMAP_STYLE = { width: 140, height: 90 };
const LARGE_PLAN = 300;

export const EditorCanvas = memo(function EditorCanvas({ onViewportSettled }: { onViewportSettled: OnMoveEnd }) {
  const store = useEditorStore();
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const savedPositions = useEditor((s) => s.doc.view.positions);
  const selectedTaskIds = useEditor((s) => s.selectedTaskIds);
  const selectedEdgeId = useEditor((s) => s.selectedEdgeId);
  const notice = useEditor((s) => s.notice);
  const readOnly = useEditor((s) => s.readOnly);
  const { byTask } = useValidation();
  const flow = useReactFlow();
  const mapper = useMemo(() => createFlowMapper(), []);
  const moving = useRef<{ from: string; to: string } | null>(null);
  // While a node is dragged its positions go straight into React Flow's own store, not
  // through the plan: re-deriving the nodes on every pointer event is what made dragging
  // on large plans slow. The drag lands in the plan, as one undo step, when it ends.
  const rfStore = useStoreApi<TaskNode, Edge>();
  const pendingDrag = useRef<Record<string, { x: number; y: number }> | null>(null);
  const [dragging, setDragging] = useState(false);

  const index = useMemo(() => buildGraphIndex(tasks), [tasks]);
  const selected = useMemo(() => new Set(selectedTaskIds), [selectedTaskIds]);
  const highlighted = useMemo(() => (notice?.taskIds.length ? new Set(notice.taskIds) : EMPTY), [notice]);
  const inputs = useMemo(
    () => ({ tasks, positions: savedPositions, selectedTaskIds: selected, selectedEdgeId, issuesByTask: byTask, highlighted, readOnly }),
    [tasks, savedPositions, selected, selectedEdgeId, byTask, highlighted, readOnly],
  );
  const nodes = useMemo(() => mapper.nodes(inputs), [mapper, inputs]);
  // Edges do not depend on positions, so dragging a node never rebuilds them.
  const edges = useMemo(
    () => mapper.edges({ tasks, positions: {}, selectedTaskIds: selected, selectedEdgeId, issuesByTask: byTask, highlighted, readOnly }),
    [mapper, tasks, selected, selectedEdgeId, byTask, highlighted, readOnly],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<TaskNode>[]) => {
      const state = store.getState();
      let selection: Set<string> | null = null;
      const moves: NodeChange<TaskNode>[] = [];
      for (const change of changes) {
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
        flow.setNodes(applyNodeChanges(moves, flow.nodes));
      }
      if (selection) state.select([...selection]);
    },
    [store, rfStore],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<Edge>[]) => {
      for (const change of changes) {
        if (change.type !== 'select') continue;
        if (change.selected) store.getState().selectEdge(change.id);
        else if (store.getState().selectedEdgeId === change.id) store.getState().selectEdge(null);
      }
    },
    [store],
  );

  const onNodeDragStart = useCallback(() => setDragging(true), []);
  const onNodeDragStop = useCallback(() => {
    const drag = pendingDrag.current;
    pendingDrag.current = null;
    setDragging(false);
    if (drag) store.getState().moveTasks(drag);
  }, [store]);

  const isValidConnection = useCallback(
    (connection: Connection | Edge) => {
      const verdict = checkConnection(tasks, index, connection.source, connection.target, moving.current ?? undefined);
      if (verdict.ok) return true;
      const current = store.getState().notice;
      if (current?.message !== verdict.message) {
        store.getState().setNotice({ kind: 'refusal', message: verdict.message, taskIds: verdict.cycle });
      }
      return false;
    },
    [tasks, index, store],
  );

  const onConnect = useCallback((c: Connection) => void store.getState().connect(c.source, c.target), [store]);
  const onConnectStart = useCallback(() => store.getState().setNotice(null), [store]);
  const onReconnectStart = useCallback((_: unknown, edge: Edge) => {
    moving.current = { from: edge.source, to: edge.target };
  }, []);
  const onReconnect = useCallback(
    (old: Edge, c: Connection) => void store.getState().moveEdge({ from: old.source, to: old.target }, { from: c.source, to: c.target }),
    [store],
  );
  const onReconnectEnd = useCallback(() => {
    moving.current = null;
  }, []);

  const onDelete = useCallback(
    ({ nodes: gone, edges: cut }: { nodes: TaskNode[]; edges: Edge[] }) => {
      store.getState().deleteElements(
        gone.map((n) => n.id),
        cut.map((e) => ({ from: e.source, to: e.target })),
      );
    },
    [store],
  );

  const onDoubleClick = useCallback(
    (event: React.MouseEvent) => {
      if (readOnly || !(event.target as HTMLElement).classList.contains('react-flow__pane')) return;
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      store.getState().addTask({}, { x: Math.round(at.x - NODE_SIZE.width / 2), y: Math.round(at.y - NODE_SIZE.height / 2) });
    },
    [flow, readOnly, store],
  );

  return (
    <div className="relative h-full w-full" onDoubleClick={onDoubleClick}>
      <ReactFlow<TaskNode, Edge>
        aria-label="Plan graph"
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStart={onNodeDragStart}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        onConnectStart={onConnectStart}
        isValidConnection={isValidConnection}
        onReconnect={onReconnect}
        onReconnectStart={onReconnectStart}
        onReconnectEnd={onReconnectEnd}
        onDelete={onDelete}
        onMoveEnd={onViewportSettled}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesReconnectable={!readOnly}
        deleteKeyCode={readOnly ? null : DELETE_KEYS}
        zoomOnDoubleClick={false}
        onlyRenderVisibleElements={tasks.length > LARGE_PLAN}
        minZoom={0.05}
        maxZoom={2}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        proOptions={PRO_OPTIONS}
        fitView
        fitViewOptions={FIT_VIEW_OPTIONS}
      >
        <Background gap={24} />
        {/* Hidden while dragging: it redraws every task on each frame, the largest cost of a drag on big plans. */}
        {!dragging && <MiniMap pannable zoomable ariaLabel="Minimap" nodeStrokeWidth={3} style={MINIMAP_STYLE} position="top-right" />}
        <Controls aria-label="Zoom controls" showInteractive={false} />
      </ReactFlow>
    </div>
  );
});
