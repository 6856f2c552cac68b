'use client';

import { Background, Controls, Position, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type NodeHandle, type OnMove, type Viewport } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { TasksNear } from '@/lib/plan';
import { createFlowMapper, type TaskNode } from '@/lib/flow/plan-to-flow';
import { OVERVIEW_ZOOM } from '@/lib/flow/overview';
import { boundsOfTasks } from '@/lib/flow/view-window';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { DEPENDENCY_EDGE_OPTIONS, PRO_OPTIONS, READ_ONLY_CANVAS } from './canvas-chrome';
import { TaskNodeComponent } from './task-node';
import { FIT_TASKS, useFitBounds, whenDrawn } from './use-fit-tasks';

const NODE_TYPES = { task: TaskNodeComponent };
const NOTHING = new Set<string>();
const NO_ISSUES = new Map<string, { count: number; hasError: boolean }>();

/** The browser's Element Timing name of the linked task's label: `npm run bench` reads when it was first painted on screen. */
export const LINKED_TASK_TIMING = 'plangate:linked-task';

// Where a task node's handles are (task-node.tsx: 12 px, centred on its left and right edges),
// so the server can draw the edges before any handle has been measured in a browser.
const HANDLE = 12;
const HANDLES: NodeHandle[] = [
  { type: 'target', position: Position.Left, x: -HANDLE / 2, y: NODE_SIZE.height / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
  { type: 'source', position: Position.Right, x: NODE_SIZE.width - HANDLE / 2, y: NODE_SIZE.height / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
];

/**
 * A link to a task of a big plan, while the plan loads: the tasks saved around it, drawn with
 * the editor's task nodes (subgraph boxes come with the editor), the task selected and fitted
 * as the editor fits it. Read-only. Once fitted it reports where the view is, in the window's
 * coordinates, so the editor takes over with every task where it was on screen.
 *
 * It is the first picture of the page, before any script: the nodes and edges are handed to
 * React Flow's store from the start (through its props they reach it only in an effect, which
 * the server never runs), and until the view is fitted a style centres the task in the pane
 * (the server does not know the pane's size; globals.css).
 */
export const TasksNearFlow = memo(function TasksNearFlow({ near, onMoved, onReady }: { near: TasksNear; onMoved: (viewport: Viewport) => void; onReady: () => void }) {
  const { nodes, edges } = useMemo(() => {
    const input = {
      tasks: near.tasks,
      positions: near.positions,
      selectedTaskIds: new Set([near.taskId]),
      selectedEdgeId: null,
      issuesByTask: NO_ISSUES,
      highlighted: NOTHING,
      readOnly: true,
      subgraphs: [],
      collapsed: NOTHING,
    };
    const mapper = createFlowMapper();
    const drawn = (mapper.nodes(input) as TaskNode[]).map((node) =>
      node.id === near.taskId ? { ...node, handles: HANDLES, data: { ...node.data, elementTiming: LINKED_TASK_TIMING } } : { ...node, handles: HANDLES },
    );
    return { nodes: drawn, edges: mapper.edges(input) };
  }, [near]);
  return (
    <ReactFlowProvider initialNodes={nodes} initialEdges={edges}>
      <TasksNearCanvas near={near} nodes={nodes} edges={edges} onMoved={onMoved} onReady={onReady} />
    </ReactFlowProvider>
  );
});

function TasksNearCanvas({ near, nodes, edges, onMoved, onReady }: { near: TasksNear; nodes: TaskNode[]; edges: Edge[]; onMoved: (viewport: Viewport) => void; onReady: () => void }) {
  const fitBounds = useFitBounds();
  const flow = useReactFlow();
  const pane = useRef<HTMLDivElement>(null);
  const [fitted, setFitted] = useState(false);
  // Where the linked task is: fitted by the script, centred by the style until then.
  const bounds = useMemo(() => boundsOfTasks([near.taskId], near.positions), [near]);
  const report = useMemo(
    () => (viewport: Viewport) => {
      const at = pane.current?.getBoundingClientRect();
      if (at) onMoved({ x: viewport.x + at.left, y: viewport.y + at.top, zoom: viewport.zoom });
    },
    [onMoved],
  );
  // Ready once the view is fitted to the task and the task is drawn. A view it could not fit
  // is not handed over: the editor then fits the task itself.
  useEffect(() => {
    let gone = false;
    void (bounds ? fitBounds(bounds, FIT_TASKS) : Promise.resolve(false)).then(async (fitted) => {
      if (!gone) setFitted(true);
      await whenDrawn(near.taskId);
      if (gone) return;
      if (fitted) report(flow.getViewport());
      onReady();
    });
    return () => {
      gone = true;
    };
  }, [near, bounds, fitBounds, flow, report, onReady]);
  const onMoveEnd = useMemo<OnMove>(() => (_, viewport) => report(viewport), [report]);
  // The task's centre, at the zoom the fit will choose in any pane wider than about 450 px.
  const centred =
    !fitted && bounds
      ? ({
          '--centre-x': `${(bounds.x + bounds.width / 2) * FIT_TASKS.maxZoom}px`,
          '--centre-y': `${(bounds.y + bounds.height / 2) * FIT_TASKS.maxZoom}px`,
          '--centre-zoom': FIT_TASKS.maxZoom,
        } as CSSProperties)
      : undefined;
  return (
    <div ref={pane} className="relative h-full w-full" data-centred={centred ? '' : undefined} style={centred}>
      <ReactFlow<TaskNode, Edge>
        aria-label={`Tasks around ${near.taskId}, while the plan loads`}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        {...READ_ONLY_CANVAS}
        onMoveEnd={onMoveEnd}
        // As the editor's canvas of a big plan allows.
        minZoom={OVERVIEW_ZOOM * 0.8}
        maxZoom={2}
        defaultEdgeOptions={DEPENDENCY_EDGE_OPTIONS}
        proOptions={PRO_OPTIONS}
      >
        <Background gap={24} />
        <Controls aria-label="Zoom controls" showInteractive={false} showFitView={false} />
      </ReactFlow>
    </div>
  );
}
