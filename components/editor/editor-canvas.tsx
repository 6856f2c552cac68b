'use client';

import {
  Background,
  Controls,
  ReactFlow,
  applyNodeChanges,
  useReactFlow,
  useStoreApi,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnMoveEnd,
  type Viewport,
} from '@xyflow/react';
import { memo, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { checkConnection } from '@/lib/flow/connection-check';
import { NODE_SIZE } from '@/lib/flow/elk-graph';
import { createFlowMapper, type CanvasNode } from '@/lib/flow/plan-to-flow';
import { removedTaskNodes } from '@/lib/flow/review-marks';
import { dropTarget, subgraphIdOfNode, type SubgraphBox } from '@/lib/flow/subgraph-boxes';
import { OVERVIEW_TASKS, OVERVIEW_ZOOM } from '@/lib/flow/overview';
import { containsRect, idsWithin, visibleRect, windowAround, type Rect } from '@/lib/flow/view-window';
import { subgraphsHolding } from '@/lib/optimize/subgraph-edits';
import { buildGraphIndex } from '@/lib/graph';
import { DEPENDENCY_EDGE_OPTIONS, PRO_OPTIONS, PlanMiniMap } from './canvas-chrome';
import { useCanvasFocusStore } from './canvas-focus';
import { useEditor, useEditorStore } from './editor-context';
import { RemovedTaskNodeComponent } from './removed-task-node';
import { ReviewMarksContext } from './review-marks-context';
import { SubgraphNodeComponent } from './subgraph-node';
import { TaskNodeComponent } from './task-node';
import { useFitTasks } from './use-fit-tasks';
import { useValidation } from './use-validation';

const EMPTY: ReadonlySet<string> = new Set();
// Module-level so their identity never changes: React Flow copies changed props into its
// store, and a fresh object on every render would mean extra store updates per drag frame.
const FIT_VIEW_OPTIONS = { padding: 0.2 };
const DELETE_KEYS = ['Delete', 'Backspace'];
const LARGE_PLAN = 300;
/** An aggregate opened from the overview is shown at a zoom its tasks read at. */
const OPENED_FIT = { padding: 0.1, minZoom: 0.5, maxZoom: 1.1 };
const NODE_TYPES = { task: TaskNodeComponent, subgraph: SubgraphNodeComponent, removed: RemovedTaskNodeComponent };
/** Arrow keys move the selection this far; with Shift, NUDGE_FAR. */
const NUDGE = 10;
const NUDGE_FAR = 50;
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The expanded subgraph boxes among the canvas nodes, for dropping tasks into. */
function expandedBoxes(nodes: readonly CanvasNode[]): SubgraphBox[] {
  const boxes: SubgraphBox[] = [];
  for (const node of nodes) {
    if (node.type !== 'subgraph' || node.data.collapsed) continue;
    boxes.push({ subgraphId: node.data.subgraphId, x: node.position.x, y: node.position.y, width: node.width ?? 0, height: node.height ?? 0, taskCount: node.data.taskCount });
  }
  return boxes;
}

export const EditorCanvas = memo(function EditorCanvas({ onViewportSettled }: { onViewportSettled: OnMoveEnd }) {
  const store = useEditorStore();
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const savedPositions = useEditor((s) => s.doc.view.positions);
  const selectedTaskIds = useEditor((s) => s.selectedTaskIds);
  const selectedEdgeId = useEditor((s) => s.selectedEdgeId);
  const notice = useEditor((s) => s.notice);
  const readOnly = useEditor((s) => s.readOnly);
  const subgraphs = useEditor((s) => s.doc.subgraphs);
  const collapsedIds = useEditor((s) => s.collapsed);
  const { byTask } = useValidation();
  const review = useContext(ReviewMarksContext);
  const flow = useReactFlow();
  const focus = useCanvasFocusStore();
  // Where the page showed the linked task while the plan loaded: the canvas opens with every
  // task where it was on screen. The handed view is in the window's coordinates, so React Flow
  // is mounted once this pane has been measured, still before the first paint (null until then).
  const pane = useRef<HTMLDivElement>(null);
  const [handed] = useState(() => focus.getState().takeOpenedAt());
  const [openedAt, setOpenedAt] = useState<Viewport | null | undefined>(handed ? null : undefined);
  useLayoutEffect(() => {
    if (openedAt !== null || !handed || !pane.current) return;
    const { left, top } = pane.current.getBoundingClientRect();
    setOpenedAt({ x: handed.x - left, y: handed.y - top, zoom: handed.zoom });
  }, [handed, openedAt]);
  const fitTasks = useFitTasks();
  // Tasks to show on arrival from the overview (an opened aggregate, a revealed task). React
  // Flow queues the fit until it has the nodes.
  useEffect(() => {
    const fit = focus.getState().takePendingFit();
    if (fit) fitTasks(fit, OPENED_FIT);
  }, [focus, fitTasks]);
  const mapper = useMemo(() => createFlowMapper(), []);
  const moving = useRef<{ from: string; to: string } | null>(null);
  // While a node is dragged its positions go straight into React Flow's own store, not
  // through the plan: re-deriving the nodes on every pointer event is what made dragging
  // on large plans slow. The drag lands in the plan, as one undo step, when it ends.
  const rfStore = useStoreApi<CanvasNode, Edge>();
  const pendingDrag = useRef<Record<string, { x: number; y: number }> | null>(null);
  const [dragging, setDragging] = useState(false);

  const index = useMemo(() => buildGraphIndex(tasks), [tasks]);
  // A big plan is never fitted whole on this canvas: it opens at a task, a viewport or from the overview.
  const large = tasks.length > OVERVIEW_TASKS;
  const selected = useMemo(() => new Set(selectedTaskIds), [selectedTaskIds]);
  const highlighted = useMemo(() => (notice?.taskIds.length ? new Set(notice.taskIds) : EMPTY), [notice]);
  const collapsed = useMemo(() => (collapsedIds.length ? new Set(collapsedIds) : EMPTY), [collapsedIds]);
  const inputs = useMemo(
    () => ({ tasks, positions: savedPositions, selectedTaskIds: selected, selectedEdgeId, issuesByTask: byTask, highlighted, readOnly, subgraphs, collapsed, reviewMarks: review?.marks }),
    [tasks, savedPositions, selected, selectedEdgeId, byTask, highlighted, readOnly, subgraphs, collapsed, review],
  );
  const nodes = useMemo(() => mapper.nodes(inputs), [mapper, inputs]);
  // The review canvas draws the tasks removed since the base revision too, dashed, after the layout.
  const removed = useMemo(() => removedTaskNodes(review?.removed ?? [], tasks, savedPositions), [review, tasks, savedPositions]);
  const drawn = useMemo<CanvasNode[]>(() => (removed.length ? [...nodes, ...removed] : nodes), [nodes, removed]);
  const nodesRef = useRef(nodes);
  useLayoutEffect(() => {
    nodesRef.current = nodes;
  });
  // On a big plan React Flow is given only the nodes in a window around the view, and only
  // their edges are drawn (lib/flow/view-window): given all of them, it drew and measured
  // every one once, and thousands of long dependencies crossing the screen made every drag
  // frame cost hundreds of ms. The window moves when the view leaves it or zooms well into it.
  const [windowRect, setWindowRect] = useState<Rect | null>(null);
  // Held still while a node is dragged: a new set of nodes mid-drag (the view auto-pans)
  // would put the dragged node back for a frame. It catches up when the drag ends.
  useEffect(() => {
    if (!large || dragging) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const { transform, width, height } = rfStore.getState();
      if (!width || !height) return;
      const view = visibleRect(transform, width, height);
      setWindowRect((known) => (known && containsRect(known, view) && view.width * 4 >= known.width ? known : windowAround(view)));
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(check);
    };
    schedule();
    const unsubscribe = rfStore.subscribe((state, before) => {
      if (state.transform !== before.transform || state.width !== before.width || state.height !== before.height) schedule();
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [large, dragging, rfStore]);
  // Selected tasks stay given wherever they are, so a selection dragged or deleted is whole.
  const given = useMemo(() => {
    if (!large) return drawn;
    const near = windowRect ? idsWithin(drawn, windowRect) : null;
    return drawn.filter((node) => near?.has(node.id) || node.selected);
  }, [large, drawn, windowRect]);
  const givenIds = useMemo(() => (large ? new Set(given.map((node) => node.id)) : null), [large, given]);
  const givenRef = useRef(given);
  useLayoutEffect(() => {
    givenRef.current = given;
  });
  // The pan-zoom machinery outlives a switch of canvas: a wheel gesture on the overview can
  // end (and be reported here) after this canvas took over. It was not about this canvas.
  const [mountedAt] = useState(() => performance.now());
  const onMoveEnd = useCallback<OnMoveEnd>(
    (event, viewport) => {
      if (event && event.timeStamp < mountedAt) return;
      onViewportSettled(event, viewport);
    },
    [mountedAt, onViewportSettled],
  );
  // Edges do not depend on positions, so dragging a node never rebuilds them.
  const allEdges = useMemo(
    () => mapper.edges({ tasks, positions: {}, selectedTaskIds: selected, selectedEdgeId, issuesByTask: byTask, highlighted, readOnly, subgraphs, collapsed }),
    [mapper, tasks, selected, selectedEdgeId, byTask, highlighted, readOnly, subgraphs, collapsed],
  );
  const edges = useMemo(() => (givenIds ? allEdges.filter((e) => givenIds.has(e.source) && givenIds.has(e.target)) : allEdges), [givenIds, allEdges]);

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
  // Dropping a task inside another subgraph's box moves it there, with its new position,
  // as one step; a refused move puts the tasks back where they were.
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
    [store, rfStore],
  );

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
    ({ nodes: gone, edges: cut }: { nodes: CanvasNode[]; edges: Edge[] }) => {
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

  // Arrow keys move the selected tasks while focus is on the canvas (a node, an edge, the
  // pane), never while typing. Handled here, before React Flow's own node handler, so that a
  // move goes through the plan as a named command: a burst of presses is one undo step.
  const onKeyDownCapture = useCallback(
    (event: React.KeyboardEvent) => {
      const direction = ARROWS[event.key];
      if (!direction || readOnly || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (store.getState().selectedTaskIds.length === 0) return;
      event.preventDefault();
      event.stopPropagation();
      const step = event.shiftKey ? NUDGE_FAR : NUDGE;
      store.getState().nudgeSelection(direction[0] * step, direction[1] * step);
    },
    [readOnly, store],
  );

  return (
    <div ref={pane} className="relative h-full w-full" onDoubleClick={onDoubleClick} onKeyDownCapture={onKeyDownCapture}>
      {openedAt !== null && (
        <ReactFlow<CanvasNode, Edge>
          aria-label="Plan graph"
          nodes={given}
          edges={edges}
          nodeTypes={NODE_TYPES}
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
          onMoveEnd={onMoveEnd}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          edgesReconnectable={!readOnly}
          deleteKeyCode={readOnly ? null : DELETE_KEYS}
          zoomOnDoubleClick={false}
          onlyRenderVisibleElements={tasks.length > LARGE_PLAN}
          // Zooming a big plan out stops just past the overview's threshold, where it takes over,
          // rather than drawing thousands of unreadable nodes first.
          minZoom={large ? OVERVIEW_ZOOM * 0.8 : 0.05}
          maxZoom={2}
          defaultEdgeOptions={DEPENDENCY_EDGE_OPTIONS}
          proOptions={PRO_OPTIONS}
          fitView={!large}
          fitViewOptions={FIT_VIEW_OPTIONS}
          defaultViewport={openedAt}
        >
          <Background gap={24} />
          {/* Hidden while dragging: it redraws every task on each frame, the largest cost of a drag on big plans. */}
          {/* Nor drawn for a big plan, whose map is the overview (a minimap of thousands of
              tasks cost a third of opening one at a task). */}
          {!dragging && !large && <PlanMiniMap />}
          {/* On a big plan "Fit view" is the toolbar's: it shows the overview. */}
          <Controls aria-label="Zoom controls" showInteractive={false} showFitView={!large} />
        </ReactFlow>
      )}
    </div>
  );
});
